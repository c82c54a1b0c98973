import { describe, expect, it } from 'vitest';
import { ACTIONS, findAction } from '../../src/actions/index.js';
import { ACTION_IDS, SURFACE_ACTION_IDS, baseActionId } from '../../src/domain/action-ids.js';
import { HOME_ACTION } from '../../src/chat/slack/slack-home.js';
import type { Message } from '../../templates/message.js';
import { sweepAlert } from '../../templates/sweep-alert.js';
import type { SweepFinding } from '../../src/domain/sweep-finding.js';
import { HOSTILE_MESSAGES } from '../templates/hostile-messages.js';
import { anomalyAlert } from '../../templates/anomaly-alert.js';
import { SAMPLE_ANOMALY } from '../support/anomaly-finding.js';

/** Every action id a message carries: its buttons and its menus. */
function emittedIds(message: Message): string[] {
  return message.blocks.flatMap((block) =>
    block.type === 'actions' ? [...block.buttons.map((b) => b.action), ...(block.select ? [block.select.action] : [])] : [],
  );
}

const instance = {
  instanceId: 'i-0a',
  name: 'sweep-0',
  instanceType: 'g5.xlarge',
  gpuCount: 1,
  hourlyPrice: 1,
  protected: false,
  running: true,
  runningHours: 5,
  spend: 5,
  gpuHours: 5,
};
const sweep: SweepFinding = {
  id: 'sweep.spend:t:s',
  kind: 'sweep.spend',
  team: 't',
  sweep: 's',
  cap: 1,
  value: 5,
  spend: 5,
  gpuHours: 5,
  windowHours: 24,
  perHour: 1,
  instances: [instance],
};

/** One message of every template kind, and a sweep alert nobody has acted on yet (the fixture's was stopped: its button is gone). */
const MESSAGES: Record<string, Message> = {
  ...HOSTILE_MESSAGES,
  'sweep alert': sweepAlert({ teamName: 'Team', finding: sweep, dryRun: false }),
  'anomaly alert': anomalyAlert({ teamName: 'Team', finding: SAMPLE_ANOMALY, resolved: false }),
};

const emitted = Object.entries(MESSAGES).flatMap(([kind, message]) => emittedIds(message).map((id) => ({ kind, id })));
const surface = new Set<string>(Object.values(SURFACE_ACTION_IDS));

describe('action ids', () => {
  it('renders buttons in the templates that have them', () => {
    const kinds = new Set(emitted.map((e) => e.kind));
    for (const kind of [
      'budget alert',
      'idle alert',
      'recommendation',
      'review line',
      'spot migrated',
      'sweep alert',
      'team picker',
      'app home',
    ])
      expect(kinds).toContain(kind);
  });

  it('resolves every id a template emits to a registered handler, or to the platform surface that answers it', () => {
    const unresolved = emitted.filter(({ id }) => !findAction(id) && !surface.has(baseActionId(id)));
    expect(unresolved).toEqual([]);
    for (const { id } of emitted.filter(({ id }) => findAction(id))) expect(findAction(id)!.id).toBe(baseActionId(id));
  });

  it('leaves the surface buttons to the platform: App Home opens the budget form, a link button its page', () => {
    const surfaced = emitted.filter(({ id }) => surface.has(baseActionId(id)));
    for (const { id } of surfaced) expect(HOME_ACTION.test(id) || /^link\.open:\d+$/.test(id)).toBe(true);
    expect(surfaced.some(({ id }) => id.startsWith('link.open'))).toBe(true);
  });

  it('registers one handler per id, each drawn by a template (the budget form is drawn by the Slack adapter)', () => {
    const ids = ACTIONS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(Object.values(ACTION_IDS).sort());
    const drawn = new Set(emitted.map(({ id }) => baseActionId(id)));
    expect(ids.filter((id) => !drawn.has(id))).toEqual([ACTION_IDS.budgetSave]);
  });

  it('knows no id it was not given', () => {
    expect(findAction('budget.acknowledge')).toBeUndefined();
    expect(findAction('')).toBeUndefined();
  });
});
