/**
 * Acknowledge, Snooze and Unsnooze act on a finding of any registered check: here a runaway
 * sweep's, which has no buttons of its own for them. A snoozed sweep cap is recorded but not
 * alerted when it crosses again; ending the snooze lets the next crossing speak.
 */
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import type { Deps } from '../../src/deps.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { runSweepCheck } from '../../src/jobs/sweep-check.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { testDeps } from '../support/deps.js';
import { command } from '../support/recording-reply.js';
import { gpuDemo } from '../support/gpu-demo.js';
import { dispatchClick as press } from '../support/dispatch-click.js';
// CAROL owns llm-training; ALICE is of another team.
import { ALICE, CAROL } from '../support/demo-org.js';

/** The lr-warmup sweep (llm-training) is over the demo's $80 spend cap at T. */
const T = '2026-11-18T06:00:00Z';
const SWEEP = 'sweep.spend:llm-training:lr-warmup';

function setup() {
  const t = testDeps(demoConfig(), T);
  t.deps.gpu = buildGpuDeps(t.deps.config)!;
  return t;
}

/** The cap of llm-training's sweeps, as burnrate.yml would set it. */
function capAt(deps: Deps, spend: number) {
  deps.config.teams.find((t) => t.id === 'llm-training')!.sweepCaps = { spend };
}

describe('finding buttons on a finding of any check', () => {
  it('acknowledge a sweep finding once, and refuse another team', async () => {
    const { deps } = setup();
    expect((await runSweepCheck(deps)).findings.map((f) => f.id)).toEqual([SWEEP]);

    const refused = await press(deps, ALICE, 'budget.ack', { f: SWEEP });
    expect(refused.text()).toContain('Only owners and approvers of llm-training can acknowledge its alerts.');
    const first = await press(deps, CAROL, 'budget.ack', { f: SWEEP });
    expect(first.text()).toBe('Acknowledged: sweep lr-warmup over its spend cap.');
    expect(await deps.store.acknowledgements.get(SWEEP)).toMatchObject({ byUser: CAROL });
    const again = await press(deps, CAROL, 'budget.ack', { f: SWEEP });
    expect(again.text()).toContain(`Already acknowledged by ${CAROL}`);
    // The audit log, newest first.
    expect((await deps.store.audit.list()).map((e) => `${e.action} ${e.result}`)).toEqual([
      'budget.ack duplicate',
      'budget.ack ok',
      'budget.ack refused',
    ]);
  });

  it('a snoozed sweep cap crosses again in silence; after Unsnooze the next crossing alerts', async () => {
    const { deps } = setup();
    expect((await runSweepCheck(deps)).queued.length).toBeGreaterThan(0);

    const snoozed = await press(deps, CAROL, 'budget.snooze', { f: SWEEP, for: '24h' });
    expect(renderPlainText(snoozed.privates[0]!)).toContain('Alerts of sweep lr-warmup over its spend cap are snoozed until');
    expect((await deps.store.snoozes.active(deps.clock())).map((s) => s.groupKey)).toEqual([SWEEP]);

    // Under a raised cap the finding resolves; back at $80 it opens again, recorded but not alerted.
    capAt(deps, 100_000);
    expect((await runSweepCheck(deps)).resolved).toEqual([SWEEP]);
    capAt(deps, 80);
    const silent = await runSweepCheck(deps);
    expect(silent.findings.map((f) => `${f.state} ${f.id}`)).toEqual([`new ${SWEEP}`]);
    expect(silent.queued).toEqual([]);

    const ended = await press(deps, CAROL, 'budget.unsnooze', { f: SWEEP });
    expect(ended.text()).toBe('Alerts of sweep lr-warmup over its spend cap are no longer snoozed.');
    capAt(deps, 100_000);
    await runSweepCheck(deps);
    capAt(deps, 80);
    expect((await runSweepCheck(deps)).queued.length).toBeGreaterThan(0);
  });

  it('the typed snooze names the sweep, and refuses "period" for a finding without one', async () => {
    const { deps } = setup();
    await runSweepCheck(deps);
    const typed = command(CAROL, `snooze ${SWEEP} 7d`);
    await dispatch(deps, typed);
    expect(JSON.stringify(typed.reply.privates.concat(typed.reply.updates, typed.reply.threads).map(renderPlainText))).toContain(
      'Alerts of llm-training for sweep lr-warmup over its spend cap are snoozed until 2026-11-25 06:00 UTC.',
    );
    const period = command(CAROL, `snooze ${SWEEP} period`);
    await dispatch(deps, period);
    expect(JSON.stringify(period.reply.privates.map(renderPlainText))).toContain('this finding has no period');
  });

  it('a snoozed idle instance that idles again after a Keep ran out is recorded but not alerted', async () => {
    const { deps, setNow } = gpuDemo();
    await runGpuCheck(deps);
    const alice = (await deps.store.gpuFindings.listOpen()).find((f) => f.name === 'alice-notebook')!;
    const snoozed = await press(deps, 'U0DEMOALICE', 'budget.snooze:7d', { f: alice.id, for: '7d' });
    expect(renderPlainText(snoozed.privates[0]!)).toContain('Alerts of alice-notebook idle are snoozed until 2026-11-25 06:00 UTC.');

    // Kept for a minute (resolved), then idle again: a new idle period, recorded, and said to nobody.
    await deps.store.keeps.set({
      instanceId: alice.instanceId,
      until: new Date('2026-11-18T06:01:00Z'),
      byUser: 'U0DEMOALICE',
      at: new Date(T),
    });
    setNow('2026-11-18T06:00:30Z');
    await runGpuCheck(deps);
    setNow('2026-11-18T06:02:00Z');
    const after = await runGpuCheck(deps);
    expect(after.findings.filter((f) => f.name === 'alice-notebook').map((f) => f.state)).toEqual(['new']);
    expect(after.queued).toEqual([]);
  });
});
