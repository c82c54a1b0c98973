import { describe, expect, it } from 'vitest';
import { DemoInstancePort } from '../../src/providers/demo/demo-instance-port.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import type { Deps } from '../../src/deps.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { runSweepCheck } from '../../src/jobs/sweep-check.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import type { ActionsBlock } from '../../templates/message.js';
import { testDeps } from '../support/deps.js';
import { click } from '../support/recording-reply.js';
import { ALICE, CAROL, DAN } from '../support/demo-org.js';

// Demo users: CAROL owns llm-training, DAN approves it; ALICE is of another team.
/** The lr-warmup sweep (4× g5.12xlarge spot, llm-training) has spent about $354 in the week to now: over the demo's $80 cap. */
const T = '2026-11-18T06:00:00Z';
const SWEEP_INSTANCES = ['llm-sweep-0', 'llm-sweep-1', 'llm-sweep-2', 'llm-sweep-3'];

/** The demo, with llm-sweep-0 tagged burnrate:protect=true. */
async function setup() {
  const t = testDeps(demoConfig(), T);
  const gpu = buildGpuDeps(t.deps.config)!;
  const inventory = (await gpu.inventory()).instances.map((i) =>
    i.name === 'llm-sweep-0' ? { ...i, protected: true, tags: { ...i.tags, 'burnrate:protect': 'true' } } : i,
  );
  const port = new DemoInstancePort(inventory.map((i) => ({ id: i.instanceId, state: 'running', tags: { ...i.tags } })));
  t.deps.gpu = { ...gpu, inventory: async () => ({ instances: inventory, unavailable: [] }), instances: port };
  const nameOf = new Map(inventory.map((i) => [i.instanceId, i.name]));
  return { ...t, port, nameOf };
}

async function stopSweep(deps: Deps, userId: string, value: string) {
  const interaction = click(userId, 'sweep.stop', value);
  await dispatch(deps, interaction);
  return interaction.reply;
}

describe('the runaway-sweep check', () => {
  it('alerts the team once when a sweep crosses its cap, with its instances and a Stop sweep button', async () => {
    const { deps, chat } = await setup();
    const first = await runSweepCheck(deps);
    expect(first.findings.map((f) => `${f.state} ${f.id}`)).toEqual(['new sweep.spend:llm-training:lr-warmup']);
    const finding = first.findings[0]!;
    expect(finding.value).toBeGreaterThan(80);
    expect(finding.instances.map((i) => i.name).sort()).toEqual(SWEEP_INSTANCES);
    expect(finding.spend).toBeCloseTo(
      finding.instances.reduce((s, i) => s + i.spend, 0),
      1,
    );
    // ml-research's ablation sweep stays under its 800 GPU-hour cap.
    expect(first.findings.some((f) => f.team === 'ml-research')).toBe(false);

    await deliverOutbox(deps);
    expect(chat.posted.map((p) => p.address)).toEqual(['#llm-training']);
    const text = renderPlainText(chat.posted[0]!.message);
    expect(text).toMatch(/LLM Training: sweep lr-warmup ran away \(\$[\d,.]+ spent, over its \$80\.00 cap\)/);
    expect(text).toContain('llm-sweep-0');
    const [stop] = chat.posted[0]!.message.blocks.filter((b): b is ActionsBlock => b.type === 'actions')[0]!.buttons;
    expect(stop).toMatchObject({ action: 'sweep.stop', label: 'Stop sweep', style: 'danger', value: JSON.stringify({ f: finding.id }) });

    // Still over the cap an hour later: no second alert.
    expect((await runSweepCheck(deps)).queued).toHaveLength(0);
    await deliverOutbox(deps);
    expect(chat.posted).toHaveLength(1);
  });

  it('resolves no sweep while an inventory source cannot be read (its spend is counted short), and does once they all answer', async () => {
    const { deps } = await setup();
    const [finding] = (await runSweepCheck(deps)).findings;
    const others = (await deps.gpu!.inventory()).instances.filter((i) => !SWEEP_INSTANCES.includes(i.name!));
    const unread = { source: 'ec2 (us-east-1)', error: 'EC2 in us-east-1 denied ec2:DescribeInstances (UnauthorizedOperation).' };
    deps.gpu!.inventory = async () => ({ instances: others, unavailable: [unread] });
    const outage = await runSweepCheck(deps);
    expect(outage.resolved).toEqual([]);
    expect((await deps.store.sweepFindings.listOpen()).map((f) => f.id)).toEqual([finding!.id]);
    // Every source answers and the sweep's machines are gone: it resolves.
    deps.gpu!.inventory = async () => ({ instances: others, unavailable: [] });
    expect((await runSweepCheck(deps)).resolved).toEqual([finding!.id]);
  });

  it('says nothing without caps, and records nothing on a dry run', async () => {
    const { deps } = await setup();
    expect((await runSweepCheck(deps, { dryRun: true })).findings).toHaveLength(1);
    expect(await deps.store.sweepFindings.listOpen()).toHaveLength(0);
    for (const team of deps.config.teams) delete team.sweepCaps;
    expect(await runSweepCheck(deps)).toEqual({ findings: [], resolved: [], queued: [] });
  });
});

describe('Stop sweep', () => {
  it('refuses other teams, dry-runs while actions are off, then stops every unprotected instance once, audited', async () => {
    const { deps, port, nameOf } = await setup();
    const [finding] = (await runSweepCheck(deps)).findings;
    const value = JSON.stringify({ f: finding!.id });

    const refused = await stopSweep(deps, ALICE, value);
    expect(refused.text()).toContain('Only owners and approvers of LLM Training can stop sweep lr-warmup.');

    const dry = await stopSweep(deps, CAROL, value);
    expect(dry.text()).toMatch(
      /^Dry run: burnrate would have stopped 3 instance\(s\) of sweep lr-warmup .*Left running: llm-sweep-0 \(protected or not running\)\. Nothing was stopped\./,
    );
    expect(port.stopped).toEqual([]);

    deps.config.actions.enabled = true;
    const done = await stopSweep(deps, CAROL, value);
    expect(port.stopped.map((id) => nameOf.get(id)).sort()).toEqual(['llm-sweep-1', 'llm-sweep-2', 'llm-sweep-3']);
    expect(done.privates).toHaveLength(0);
    const updated = renderPlainText(done.updates[0]!);
    expect(updated).toContain(`Sweep stopped 2026-11-18 06:00 UTC by ${CAROL}`);
    expect(updated).toContain('3 stopped, left running: llm-sweep-0 (protected or not running).');
    // The table shows the state after the action: the three it stopped say so; none runs now.
    expect(updated).toMatch(/llm-sweep-1 +g5\.12xlarge +stopped/);
    expect(updated).toContain('0 of its 4 instances run now, at $0.00 per hour.');
    expect(updated).not.toContain('[Stop sweep]');

    const again = await stopSweep(deps, DAN, value);
    expect(again.text()).toContain(`Sweep lr-warmup was already stopped by ${CAROL}`);
    expect(port.stopped).toHaveLength(3);

    const audit = (await deps.store.audit.list(50)).filter((a) => a.action === 'sweep.stop').reverse();
    expect(audit.map((a) => `${a.userId} ${a.result}`)).toEqual([
      `${ALICE} refused`,
      ...Array.from({ length: 4 }, (_, i) => `${CAROL} ${i === 0 ? 'refused' : 'dry-run'}`),
      ...Array.from({ length: 4 }, (_, i) => `${CAROL} ${i === 0 ? 'refused' : 'ok'}`),
      `${DAN} duplicate`,
    ]);
  });

  it('answers a button of an unknown sweep clearly', async () => {
    const { deps } = await setup();
    expect((await stopSweep(deps, CAROL, JSON.stringify({ f: 'sweep.spend:llm-training:nope' }))).text()).toContain(
      'no longer known to burnrate',
    );
    expect((await stopSweep(deps, CAROL, '{not json')).text()).toContain('carries data burnrate cannot read');
  });
});
