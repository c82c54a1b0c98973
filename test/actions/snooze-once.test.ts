/**
 * Snooze buttons act once per click: a repeated or replayed click changes nothing and says who
 * snoozed until when; a shorter snooze never replaces a longer one unless it is typed.
 */
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import type { Deps } from '../../src/deps.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { DemoSource } from '../../src/providers/demo/demo-source.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { testDeps } from '../support/deps.js';
import { click, command } from '../support/recording-reply.js';
import { CAROL, DAN } from '../support/demo-org.js';

// Demo users: CAROL owns llm-training, DAN approves it.
const FORECAST = 'budget.forecast:llm-training:2026-11:100';
const GROUP = 'budget.forecast:llm-training:2026-11';
const T = '2026-11-20T09:00:00Z';

async function setup() {
  const t = testDeps(demoConfig(), T);
  t.deps.sources = [new DemoSource({ seed: 42, days: 90 })];
  await refreshSources(t.deps);
  await runBudgetCheck(t.deps);
  return t;
}

async function snooze(deps: Deps, user: string, duration: '24h' | '7d' | 'period') {
  const action = duration === '24h' ? 'budget.snooze' : `budget.snooze:${duration}`;
  const interaction = click(user, action, JSON.stringify({ f: FORECAST, for: duration }));
  await dispatch(deps, interaction);
  return interaction.reply;
}

async function activeUntil(deps: Deps): Promise<string | undefined> {
  return (await deps.store.snoozes.active(deps.clock())).find((s) => s.groupKey === GROUP)?.until.toISOString();
}

/** The audit log's snooze entries, oldest first. */
async function snoozeAudit(deps: Deps) {
  return (await deps.store.audit.list()).filter((e) => e.action === 'snooze').sort((a, b) => a.id - b.id);
}

describe('Snooze buttons, once per click', () => {
  it('a replayed click of the same button does nothing and says who snoozed first; it is audited as a duplicate', async () => {
    const { deps, setNow } = await setup();
    const first = await snooze(deps, CAROL, '24h');
    expect(first.privates).toEqual([]);
    expect(renderPlainText(first.updates[0]!)).toContain(`Snoozed 2026-11-20 09:00 UTC, until 2026-11-21 09:00 UTC, by ${CAROL}`);

    // Five minutes later the platform replays the click; later a colleague clicks the same button.
    setNow('2026-11-20T09:05:00Z');
    const replay = await snooze(deps, CAROL, '24h');
    const colleague = await snooze(deps, DAN, '24h');
    for (const reply of [replay, colleague]) {
      expect(reply.updates).toEqual([]);
      expect(reply.text()).toBe(`Already snoozed by ${CAROL} at 2026-11-20 09:00 UTC until 2026-11-21 09:00 UTC.`);
    }
    expect(await activeUntil(deps)).toBe('2026-11-21T09:00:00.000Z');
    const audit = await snoozeAudit(deps);
    expect(audit.map((e) => `${e.userId} ${e.result}`)).toEqual([`${CAROL} ok`, `${CAROL} duplicate`, `${DAN} duplicate`]);
    expect(audit[1]!.detail).toBe(`24h not applied: already snoozed by ${CAROL} until 2026-11-21T09:00:00.000Z`);
  });

  it('the period-end button replayed is a duplicate too, though it would set the same end', async () => {
    const { deps } = await setup();
    await snooze(deps, CAROL, 'period');
    const replay = await snooze(deps, CAROL, 'period');
    expect(replay.text()).toContain(`Already snoozed by ${CAROL}`);
    expect((await snoozeAudit(deps)).map((e) => e.result)).toEqual(['ok', 'duplicate']);
  });

  it('two copies of the same click arriving together apply once', async () => {
    const { deps } = await setup();
    const [a, b] = await Promise.all([snooze(deps, CAROL, '7d'), snooze(deps, CAROL, '7d')]);
    expect(a.updates.length + b.updates.length).toBe(1);
    expect(a.privates.length + b.privates.length).toBe(1);
    expect((await snoozeAudit(deps)).map((e) => e.result).sort()).toEqual(['duplicate', 'ok']);
  });

  it('a shorter snooze clicked while a longer one runs leaves the longer one and says so', async () => {
    const { deps, setNow } = await setup();
    await snooze(deps, CAROL, '7d');
    setNow('2026-11-21T10:00:00Z');
    const shorter = await snooze(deps, DAN, '24h');
    expect(shorter.updates).toEqual([]);
    expect(shorter.text()).toContain(`A longer snooze by ${CAROL} until 2026-11-27 09:00 UTC is active; it was left as it is.`);
    expect(shorter.text()).toContain(`/burnrate snooze ${FORECAST} 24h`);
    expect(await activeUntil(deps)).toBe('2026-11-27T09:00:00.000Z');
    expect((await snoozeAudit(deps)).map((e) => `${e.userId} ${e.result}`)).toEqual([`${CAROL} ok`, `${DAN} duplicate`]);
  });

  it('a longer snooze replaces a shorter one, and after a snooze ends the same button snoozes again', async () => {
    const { deps, setNow } = await setup();
    await snooze(deps, CAROL, '24h');
    const longer = await snooze(deps, DAN, '7d');
    expect(renderPlainText(longer.updates[0]!)).toContain(`Snoozed 2026-11-20 09:00 UTC, until 2026-11-27 09:00 UTC, by ${DAN}`);
    setNow('2026-11-27T09:30:00Z');
    const again = await snooze(deps, CAROL, '24h');
    expect(again.privates).toEqual([]);
    expect(await activeUntil(deps)).toBe('2026-11-28T09:30:00.000Z');
    expect((await snoozeAudit(deps)).map((e) => e.result)).toEqual(['ok', 'ok', 'ok']);
  });

  it('a typed snooze is the explicit way to end a longer one sooner', async () => {
    const { deps } = await setup();
    await snooze(deps, CAROL, '7d');
    const typed = command(DAN, `snooze ${FORECAST} 24h`);
    await dispatch(deps, typed);
    expect(typed.reply.text()).toContain('snoozed until 2026-11-21 09:00 UTC');
    expect(await activeUntil(deps)).toBe('2026-11-21T09:00:00.000Z');
    const last = (await snoozeAudit(deps)).at(-1)!;
    expect(last).toMatchObject({
      userId: DAN,
      result: 'ok',
      detail: `until 2026-11-21T09:00:00.000Z (replaced ${CAROL}'s until 2026-11-27T09:00:00.000Z)`,
    });
  });

  it('a snooze made before durations were recorded still stops a shorter click', async () => {
    const { deps } = await setup();
    await deps.store.snoozes.set({ groupKey: GROUP, until: new Date('2026-11-25T00:00:00Z'), byUser: CAROL, at: new Date(T) });
    const shorter = await snooze(deps, DAN, '24h');
    expect(shorter.text()).toContain(`A longer snooze by ${CAROL} until 2026-11-25 00:00 UTC is active`);
    expect(await activeUntil(deps)).toBe('2026-11-25T00:00:00.000Z');
  });
});
