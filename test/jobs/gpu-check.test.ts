import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { nextWorkingDayStart } from '../../src/checks/idle/next-working-day.js';
import { DEFAULT_WORKING_HOURS } from '../../src/checks/idle/team-schedule.js';
import { DemoInstancePort } from '../../src/providers/demo/demo-instance-port.js';
import type { Deps } from '../../src/deps.js';
import type { GpuSeries, MetricsRange } from '../../src/domain/gpu-metrics.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import type { ActionsBlock } from '../../templates/message.js';
import { ALICE, BOB, CAROL, STRANGER, T, findingOf, gpuDemo, press } from '../support/gpu-demo.js';
import { command } from '../support/recording-reply.js';

/** Every GPU busy (90 %) on the whole window: what a re-check sees once the job resumed. */
const busyMetrics = (deps: Deps) => ({
  id: 'busy',
  type: 'test',
  async fetch(range: MetricsRange): Promise<GpuSeries[]> {
    const n = Math.floor((range.end - range.start) / range.stepSeconds);
    const times = Float64Array.from({ length: n }, (_, i) => range.start + i * range.stepSeconds);
    const inventory = (await deps.gpu!.inventory()).instances;
    return inventory.flatMap((i) =>
      Array.from({ length: i.gpuCount }, (_, g) => ({
        ref: { host: i.instanceId, gpu: String(g) },
        times,
        util: new Float32Array(n).fill(90),
        power: null,
        memUsedMiB: null,
      })),
    );
  },
});

describe('the idle-GPU check job', () => {
  it('two checks at once (two replicas) queue each alert once: the second finds its run already recorded', async () => {
    const { deps, chat, setNow } = gpuDemo();
    // Both read the open findings before either records; the second runs a second later (another key).
    const first = runGpuCheck(deps);
    setNow('2026-11-18T06:00:01Z');
    const second = runGpuCheck(deps);
    await Promise.all([first, second]);
    await deliverOutbox(deps);
    const addresses = chat.posted.map((p) => p.address).sort();
    expect(addresses).toEqual(['#_unowned', '#inference', '#llm-training', '#ml-research', '#vision']);
  });

  it('posts one message per team listing its idle GPUs, and nothing twice', async () => {
    const { deps, chat } = gpuDemo();
    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => `${f.state} ${f.kind} ${f.team} ${f.name}`).sort()).toEqual([
      'new gpu.idle inference serve-rerank',
      'new gpu.idle ml-research alice-notebook',
      'new gpu.idle ml-research research-legacy-v100',
      'new gpu.idle ml-research research-shared-notebook',
      'new gpu.idle null growth-ranker-notebook',
      'new gpu.idle null tmp-debug-box',
      'new gpu.idle vision cv-demo-endpoint',
      'new gpu.idle vision cv-label-t4',
      'new gpu.stalled llm-training llm-pretrain-a3-0',
    ]);
    await deliverOutbox(deps);
    expect(chat.posted.map((p) => p.address).sort()).toEqual(['#_unowned', '#inference', '#llm-training', '#ml-research', '#vision']);
    const research = renderPlainText(chat.posted.find((p) => p.address === '#ml-research')!.message);
    expect(research).toContain('ML Research: 3 idle GPU instances');
    expect(research).toMatch(/alice-notebook \([\w.]+\): idle since [^·]+ · \$[\d,.]+ burned · \$[\d,.]+ per day/);
    expect(research).toContain('Dry run');
    const buttons = chat.posted
      .find((p) => p.address === '#ml-research')!
      .message.blocks.filter((b): b is ActionsBlock => b.type === 'actions');
    expect(buttons).toHaveLength(3);
    const [stop, keep4h, workday, notOurs] = buttons[0]!.buttons;
    expect(stop).toMatchObject({ action: 'instance.stop', label: 'Stop now', style: 'danger' });
    expect(stop!.confirm?.text).toMatch(/^This stops alice-notebook \(.+\), saving \$[\d,.]+ per day\./);
    expect(keep4h).toMatchObject({ action: 'instance.keep:4h', label: 'Keep 4 h' });
    expect(workday).toMatchObject({ action: 'instance.keep:workday', label: 'Keep until next working day' });
    expect(notOurs).toMatchObject({ action: 'instance.reroute', label: 'Not ours' });

    // Instances of no team (untagged, or a tag no team matches) get their own alert.
    const unowned = renderPlainText(chat.posted.find((p) => p.address === '#_unowned')!.message);
    expect(unowned).toContain('Unowned GPUs: 2 idle GPU instances');
    expect(unowned).toContain('Ours: pick the team');

    // The same run again: nothing is posted again.
    expect((await runGpuCheck(deps)).queued).toHaveLength(0);
    await deliverOutbox(deps);
    expect(chat.posted).toHaveLength(5);
  });

  it('keeps the id and start of an idle period longer than the lookback window, so it is not alerted again', async () => {
    const { deps, chat, setNow } = gpuDemo((c) => (c.gpu.lookbackHours = 2));
    setNow('2026-11-21T12:00:00Z'); // carol-notebook idle since 03:00Z
    const first = await runGpuCheck(deps);
    const carol = first.findings.find((f) => f.name === 'carol-notebook')!;
    expect(carol.state).toBe('new');
    setNow('2026-11-21T18:00:00Z');
    const later = await runGpuCheck(deps);
    const again = later.findings.find((f) => f.name === 'carol-notebook')!;
    expect(again).toMatchObject({ state: 'open', id: carol.id, since: carol.since });
    expect(again.burned).toBeCloseTo(carol.burned + carol.hourlyPrice * 6, 1);
    expect(later.queued.filter((q) => q.target.endsWith('#llm-training'))).toHaveLength(0);
    await deliverOutbox(deps);
    expect(chat.posted.filter((p) => p.address === '#llm-training')).toHaveLength(1);
  });

  it('alerts again once a Keep runs out', async () => {
    const { deps, chat, setNow } = gpuDemo();
    await runGpuCheck(deps);
    const inventory = (await deps.gpu!.inventory()).instances;
    for (const name of ['alice-notebook', 'research-shared-notebook']) {
      const { instanceId } = inventory.find((i) => i.name === name)!;
      await deps.store.keeps.set({ instanceId, until: new Date('2026-11-18T06:01:00Z'), byUser: ALICE, at: new Date(T) });
    }
    setNow('2026-11-18T06:00:30Z');
    expect((await runGpuCheck(deps)).queued).toHaveLength(0); // kept: resolved, nothing said
    setNow('2026-11-18T06:02:00Z');
    const after = await runGpuCheck(deps);
    const notebooks = after.findings.filter((f) => f.name === 'alice-notebook' || f.name === 'research-shared-notebook');
    expect(notebooks.map((f) => f.state)).toEqual(['new', 'new']);
    await deliverOutbox(deps);
    expect(chat.posted.filter((p) => p.address === '#ml-research')).toHaveLength(2);
  });

  it('records nothing on a dry run, and leaves out instances someone keeps running', async () => {
    const { deps } = gpuDemo();
    expect((await runGpuCheck(deps, { dryRun: true })).findings).toHaveLength(9);
    expect(await deps.store.gpuFindings.listOpen()).toHaveLength(0);
    const inventory = (await deps.gpu!.inventory()).instances;
    const alice = inventory.find((i) => i.name === 'alice-notebook')!;
    await deps.store.keeps.set({ instanceId: alice.instanceId, until: new Date('2026-11-18T10:00:00Z'), byUser: ALICE, at: new Date(T) });
    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => f.name).sort()).toEqual([
      'cv-demo-endpoint',
      'cv-label-t4',
      'growth-ranker-notebook',
      'llm-pretrain-a3-0',
      'research-legacy-v100',
      'research-shared-notebook',
      'serve-rerank',
      'tmp-debug-box',
    ]);
    expect(result.kept.map((f) => f.name)).toEqual(['alice-notebook']);
  });
});

describe('Stop now and Keep through the dispatcher', () => {
  it('refuses people outside the team, and audits the refusal', async () => {
    const { deps, port } = gpuDemo();
    await runGpuCheck(deps);
    const reply = await press(deps, CAROL, 'instance.stop', await findingOf(deps, 'alice-notebook'));
    expect(reply.text()).toContain('Only owners and approvers of ml-research can stop alice-notebook.');
    expect((await press(deps, STRANGER, 'instance.keep:4h', await findingOf(deps, 'alice-notebook'), { for: '4h' })).text()).toContain(
      'Only owners and approvers',
    );
    expect(port.stopped).toEqual([]);
    expect((await deps.store.audit.list()).map((a) => [a.userId, a.action, a.result])).toEqual([
      [STRANGER, 'instance.keep', 'refused'],
      [CAROL, 'instance.stop', 'refused'],
    ]);
  });

  it('answers a dry run with what it would have done while actions are disabled', async () => {
    const { deps, port } = gpuDemo();
    await runGpuCheck(deps);
    const id = await findingOf(deps, 'alice-notebook');
    const reply = await press(deps, ALICE, 'instance.stop', id);
    expect(reply.text()).toMatch(
      /^Dry run: burnrate would have stopped alice-notebook \(.+\), saving \$[\d,.]+ per day\. Nothing was stopped\./,
    );
    expect(reply.updates).toHaveLength(0);
    expect(port.stopped).toEqual([]);
    expect(await deps.store.instanceActions.get(id, 'instance.stop')).toBeNull();
    expect((await deps.store.audit.list())[0]).toMatchObject({ action: 'instance.stop', result: 'dry-run', userId: ALICE });
  });

  it('stops once when enabled: the alert says who, a second or concurrent click does nothing twice', async () => {
    const { deps, port } = gpuDemo((c) => (c.actions.enabled = true));
    await runGpuCheck(deps);
    const id = await findingOf(deps, 'alice-notebook');
    const [a, b] = await Promise.all([press(deps, ALICE, 'instance.stop', id), press(deps, BOB, 'instance.stop', id)]);
    expect(port.stopped).toHaveLength(1);
    const [winner, loser] = a.updates.length === 1 ? [a, b] : [b, a];
    expect(winner.updates).toHaveLength(1);
    const updated = renderPlainText(winner.updates[0]!);
    expect(updated).toMatch(/Stopped by U0DEMO(ALICE|BOB) at 2026-11-18 06:00 UTC/);
    expect(updated).not.toContain('Dry run');
    expect(loser.text()).toMatch(/U0DEMO(ALICE|BOB)/);

    const again = await press(deps, ALICE, 'instance.stop', id);
    expect(again.text()).toMatch(/^Already stopped by U0DEMO(ALICE|BOB) at 2026-11-18 06:00 UTC\./);
    expect(port.stopped).toHaveLength(1);
    const results = (await deps.store.audit.list()).map((e) => e.result).sort();
    expect(results).toEqual(['duplicate', 'duplicate', 'ok']);
  });

  it('audits a failed stop (a missing IAM permission) and lets it be tried again', async () => {
    const { deps } = gpuDemo((c) => (c.actions.enabled = true));
    const inventory = (await deps.gpu!.inventory()).instances;
    const port = new DemoInstancePort(
      inventory.map((i) => ({ id: i.instanceId, state: 'running' as const, tags: { ...i.tags } })),
      { denied: ['ec2:StopInstances'] },
    );
    deps.gpu!.instances = port;
    await runGpuCheck(deps);
    const id = await findingOf(deps, 'alice-notebook');
    const reply = await press(deps, ALICE, 'instance.stop', id);
    expect(reply.text()).toContain('The demo denied ec2:StopInstances');
    expect(port.stopped).toEqual([]);
    expect(await deps.store.instanceActions.get(id, 'instance.stop')).toBeNull();
    expect((await deps.store.audit.list())[0]).toMatchObject({ result: 'failed', detail: expect.stringContaining('ec2:StopInstances') });
  });

  it('answers a click during a stop in progress, and takes over a claim left unfinished for over 10 minutes', async () => {
    const { deps, port, setNow } = gpuDemo((c) => (c.actions.enabled = true));
    await runGpuCheck(deps);
    const id = await findingOf(deps, 'alice-notebook');
    const { instanceId } = (await deps.store.gpuFindings.get(id))!;
    await deps.store.instanceActions.claim({ findingId: id, action: 'instance.stop', instanceId, byUser: BOB, at: new Date(T) });
    expect((await press(deps, ALICE, 'instance.stop', id)).text()).toBe(`${BOB} is stopping alice-notebook since 2026-11-18 06:00 UTC.`);
    expect(port.stopped).toEqual([]);
    setNow('2026-11-18T06:11:00Z');
    const reply = await press(deps, ALICE, 'instance.stop', id);
    expect(renderPlainText(reply.updates[0]!)).toContain(`Stopped by ${ALICE} at 2026-11-18 06:11 UTC`);
    expect(port.stopped).toEqual([instanceId]);
  });

  it('refuses a protected instance with the reason', async () => {
    const { deps, port } = gpuDemo((c) => (c.actions.enabled = true));
    const inventory = (await deps.gpu!.inventory()).instances;
    deps.gpu!.inventory = async () => ({
      instances: inventory.map((i) => (i.name === 'alice-notebook' ? { ...i, protected: true } : i)),
      unavailable: [],
    });
    await runGpuCheck(deps);
    const reply = await press(deps, ALICE, 'instance.stop', await findingOf(deps, 'alice-notebook'));
    expect(reply.text()).toContain('Not stopped: alice-notebook is protected (burnrate:protect=true)');
    expect(port.stopped).toEqual([]);
    expect((await deps.store.audit.list())[0]).toMatchObject({ result: 'refused' });
  });

  it('re-checks at click time: an instance busy again is not stopped', async () => {
    const { deps, port } = gpuDemo((c) => (c.actions.enabled = true));
    await runGpuCheck(deps);
    const id = await findingOf(deps, 'alice-notebook');
    deps.gpu!.metrics = [busyMetrics(deps)];
    expect((await press(deps, ALICE, 'instance.stop', id)).text()).toContain('Not stopped: alice-notebook is busy again.');
    expect(port.stopped).toEqual([]);
    expect(await deps.store.instanceActions.get(id, 'instance.stop')).toBeNull();
    expect((await deps.store.audit.list())[0]).toMatchObject({ result: 'refused', detail: expect.stringContaining('busy again') });
  });

  it('Keep 4 h and Keep until next working day write an expiring exception and update the alert', async () => {
    const { deps, setNow } = gpuDemo();
    await runGpuCheck(deps);
    const alice = await findingOf(deps, 'alice-notebook');
    const shared = await findingOf(deps, 'research-shared-notebook');
    const kept = await press(deps, BOB, 'instance.keep:4h', alice, { for: '4h' });
    expect(renderPlainText(kept.updates[0]!)).toContain('Kept running by U0DEMOBOB until 2026-11-18 10:00 UTC');
    // 06:00Z is 07:00 in Berlin, before working hours: the next working day starts today at 09:00 (08:00Z).
    const workday = await press(deps, ALICE, 'instance.keep:workday', shared, { for: 'workday' });
    expect(renderPlainText(workday.updates[0]!)).toContain('Kept running by U0DEMOALICE until 2026-11-18 08:00 UTC');
    expect((await deps.store.audit.list()).map((e) => e.result)).toEqual(['ok', 'ok']);

    setNow('2026-11-18T07:00:00Z');
    const during = await runGpuCheck(deps);
    expect(
      during.findings
        .filter((f) => f.team === 'ml-research')
        .map((f) => `${f.state} ${f.name}`)
        .sort(),
    ).toEqual(['open research-legacy-v100', 'resolved alice-notebook', 'resolved research-shared-notebook']);
  });
});

describe('/burnrate idle', () => {
  it("lists the caller's teams' idle GPUs with idle time and cost; other teams are refused", async () => {
    const { deps } = gpuDemo();
    const ask = async (userId: string, text: string) => {
      const interaction = command(userId, text);
      await dispatch(deps, interaction);
      return interaction.reply.text();
    };
    const mine = await ask(ALICE, 'idle');
    expect(mine).toMatch(/^Idle GPUs of ml-research: 3, \$[\d,.]+ per day/);
    expect(mine).toContain('alice-notebook');
    expect(mine).not.toContain('llm-pretrain-a3-0');
    expect(await ask(CAROL, 'idle llm-training')).toContain('stalled');
    expect(await ask(ALICE, 'idle llm-training')).toContain('you are not a member of team "llm-training"');
    expect(await ask(ALICE, 'help')).toContain('/burnrate idle');
    expect(await deps.store.gpuFindings.listOpen()).toHaveLength(0); // it records nothing
  });
});

describe('nextWorkingDayStart', () => {
  const berlin = { timezone: 'Europe/Berlin', workingHours: DEFAULT_WORKING_HOURS };
  it('is the next start of working hours on the team clock', () => {
    expect(nextWorkingDayStart(new Date('2026-11-20T19:00:00Z'), berlin).toISOString()).toBe('2026-11-23T08:00:00.000Z'); // Friday evening → Monday 09:00
    expect(nextWorkingDayStart(new Date('2026-11-17T10:00:00Z'), berlin).toISOString()).toBe('2026-11-18T08:00:00.000Z'); // Tuesday 11:00 → Wednesday
    expect(nextWorkingDayStart(new Date('2026-11-17T06:00:00Z'), berlin).toISOString()).toBe('2026-11-17T08:00:00.000Z'); // Tuesday 07:00 → today 09:00
  });
});
