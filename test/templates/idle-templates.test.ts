import { describe, expect, it } from 'vitest';
import type { GpuFinding } from '../../src/domain/gpu-finding.js';
import { idleAlert } from '../../templates/idle-alert.js';
import { idleStatus } from '../../templates/idle-status.js';
import type { ActionsBlock, Message } from '../../templates/message.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { teamPicker } from '../../templates/team-picker.js';
import { describeRenderings } from '../support/renderings.js';

const notebook: GpuFinding = {
  id: 'gpu.idle:i-0a1b2c3d4e5f60718:2026-11-17T18:40:00.000Z',
  kind: 'gpu.idle',
  team: 'ml-research',
  instanceId: 'i-0a1b2c3d4e5f60718',
  name: 'alice-notebook',
  instanceType: 'g5.2xlarge',
  workload: 'notebook',
  protected: false,
  since: '2026-11-17T18:40:00.000Z',
  idleMinutes: 680,
  burned: 13.76,
  perDay: 29.14,
  hourlyPrice: 1.2142,
  gpus: 1,
  stalledGpus: 0,
  missingMinutes: 0,
  description: 'idle since 19:40 yesterday',
};
const stalled: GpuFinding = {
  ...notebook,
  id: 'gpu.stalled:i-9',
  kind: 'gpu.stalled',
  team: null,
  instanceId: 'i-9',
  name: null,
  instanceType: 'p5.48xlarge',
  gpus: 8,
  stalledGpus: 8,
  burned: 1_234.5,
  perDay: 2_362.08,
  protected: true,
  description: 'idle all weekend',
};

const messages: Record<string, Message> = {
  'idle-alert notify': idleAlert({ teamName: 'ML Research', items: [{ finding: notebook }], dryRun: true, mode: 'notify' }),
  'idle-alert approve, settled': idleAlert({
    teamName: 'ML Research',
    items: [{ finding: notebook, settled: true, note: 'Kept running by U1 until 2026-11-18 10:00 UTC' }],
    dryRun: false,
    mode: 'approve',
  }),
  'idle-alert auto': idleAlert({
    teamName: 'ML Research',
    items: [{ finding: notebook, autoStopAt: new Date('2026-11-18T07:00:00Z') }],
    dryRun: false,
    mode: 'auto',
  }),
  'idle-alert unowned': idleAlert({ teamName: 'Unowned GPUs', items: [{ finding: stalled }], dryRun: true, mode: 'notify', unowned: true }),
  'idle-status': idleStatus([notebook, stalled], 'all teams'),
  'team-picker': teamPicker({
    instance: 'alice-notebook',
    teams: Array.from({ length: 7 }, (_, i) => ({ id: `team-${i}`, name: `Team <${i}> & Co` })),
    button: (team) => ({ action: `instance.reroute:${team}`, value: JSON.stringify({ f: notebook.id, to: team }) }),
  }),
};

describeRenderings(messages);

describe('idle alert wording', () => {
  const buttons = (message: Message) =>
    message.blocks.filter((b): b is ActionsBlock => b.type === 'actions').flatMap((b) => b.buttons.map((x) => x.label));

  it('names the mode in its buttons: Stop now, Approve stop; Not ours, or Ours for an unowned instance', () => {
    expect(buttons(messages['idle-alert notify']!)).toEqual(['Stop now', 'Keep 4 h', 'Keep until next working day', 'Not ours']);
    expect(buttons(messages['idle-alert auto']!)[0]).toBe('Stop now');
    expect(buttons(idleAlert({ teamName: 'x', items: [{ finding: notebook }], dryRun: false, mode: 'approve' }))[0]).toBe('Approve stop');
    expect(buttons(messages['idle-alert unowned']!).at(-1)).toBe('Ours: pick the team');
    expect(buttons(messages['idle-alert approve, settled']!)).toEqual([]);
  });

  it('announces the automatic stop and says a protected instance is never stopped', () => {
    expect(renderPlainText(messages['idle-alert auto']!)).toContain(
      'Stops automatically at 2026-11-18 07:00 UTC unless someone clicks Keep.',
    );
    expect(renderPlainText(messages['idle-alert unowned']!)).toContain('protected (burnrate:protect=true): never stopped by burnrate');
  });

  it('puts at most five teams on a row of the picker', () => {
    const rows = messages['team-picker']!.blocks.filter((b): b is ActionsBlock => b.type === 'actions');
    expect(rows.map((r) => r.buttons.length)).toEqual([5, 2]);
  });
});
