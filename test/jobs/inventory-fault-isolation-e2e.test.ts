import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { FakeEc2, type FakeEc2Instance } from '../fakes/fake-ec2.js';
import { FakePrometheus, constant, dcgmGpuLabelSets } from '../fakes/fake-prometheus.js';
import { FakeSageMaker } from '../fakes/fake-sagemaker.js';
import { isolateAwsEnv, useEc2Endpoint, useSageMakerEndpoint } from '../support/aws-test-env.js';
import { testDeps } from '../support/deps.js';
import { stopClick } from '../support/gpu-demo.js';
import { command } from '../support/recording-reply.js';
import { cli, workDir } from '../support/run-cli.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import type { TeamConfig } from '../../src/config/schema.js';
import { UNOWNED_ID } from '../../src/domain/unowned.js';
import { RecordingChat } from '../fakes/recording-chat.js';
import { unreadInventoryNotices } from '../../src/checks/idle/definition/unread-inventory-notices.js';
import { ALICE, BOB, DOMAINS, ERIN_CLASSIC, NOW, SPACES, studioApps } from '../providers/aws/sagemaker-studio/studio-fixture.js';

// One GPU inventory's failure loses only its own machines: EC2 and SageMaker Studio read through
// the real AWS clients against their fakes, DCGM metrics from the Prometheus fake, the real store,
// outbox and chat messages. A machine whose source could not be read is unknown, not gone.

const OWNER = 'U0OWNER';
const IDLE_EC2 = 'i-0a00000000000000a';
/** An idle g5 in eu-west-1, its GPU at 0 % through the whole lookback (DCGM labels of the shared exposition). */
const INSTANCES: FakeEc2Instance[] = [
  {
    id: IDLE_EC2,
    region: 'eu-west-1',
    state: 'running',
    instanceType: 'g5.xlarge',
    privateDnsName: 'ip-10-8-0-7.eu-west-1.compute.internal',
    privateIp: '10.8.0.7',
    tags: { Name: 'cv-notebook', team: 'research' },
  },
];

let ec2: FakeEc2 | undefined;
let sagemaker: FakeSageMaker | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  [ec2, sagemaker, prom] = await Promise.all([
    FakeEc2.start({ instances: INSTANCES }),
    FakeSageMaker.start({ domains: DOMAINS, spaces: SPACES, apps: studioApps() }),
    FakePrometheus.start({
      gpus: [
        {
          labels: { ...dcgmGpuLabelSets()[0]!, Hostname: 'ip-10-8-0-7', gpu: '0' },
          metrics: { DCGM_FI_DEV_GPU_UTIL: constant(0), DCGM_FI_DEV_FB_USED: constant(0) },
        },
      ],
    }),
  ]);
  useEc2Endpoint(ec2.endpoint);
  useSageMakerEndpoint(sagemaker.endpoint);
  vi.stubEnv('AWS_REGION', 'eu-west-1');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  ec2?.assertNoUnexpectedCalls();
  sagemaker?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([ec2?.close(), sagemaker?.close(), prom?.close()]);
  ec2 = sagemaker = prom = undefined;
});

/**
 * A chat platform where `gpu.unowned` names a channel or not (the recording chat addresses every
 * team, as a platform whose every team has a channel key).
 */
class ChatWithUnowned extends RecordingChat {
  constructor(private readonly unowned: boolean) {
    super();
  }
  override addressOf(team: TeamConfig): string {
    return team.id === UNOWNED_ID && !this.unowned ? '' : super.addressOf(team);
  }
}

function setup({ unowned = false, teams = [] as { id: string }[] } = {}) {
  const t = testDeps(
    {
      teams: [{ id: 'research', name: 'Research', owners: [OWNER] }, ...teams],
      sources: [],
      actions: { enabled: true },
      gpu: {
        metrics: [{ type: 'prometheus', url: prom!.url }],
        inventory: [
          { type: 'ec2', regions: ['eu-west-1'] },
          { type: 'sagemaker-studio', regions: ['eu-west-1'] },
        ],
      },
    },
    NOW,
  );
  t.deps.gpu = buildGpuDeps(t.deps.config, {})!;
  const chat = new ChatWithUnowned(unowned);
  t.deps.chat = [chat];
  return { ...t, chat };
}

const STUDIO_IDLE = () => [ALICE, BOB, ERIN_CLASSIC].map((app) => sagemaker!.arnOf(app));
const idleAlerts = (texts: string[]) => texts.filter((text) => text.includes('idle'));

describe('one GPU inventory that cannot be read', () => {
  it("loses only its own machines: EC2's idle instance is alerted, and the run names the Studio inventory and the action it was denied", async () => {
    const { deps, chat } = setup();
    sagemaker!.denied.add('ListApps');

    const result = await runGpuCheck(deps);

    expect(result.findings.map((f) => [f.instanceId, f.state])).toEqual([[IDLE_EC2, 'new']]);
    expect(result.unavailable).toHaveLength(1);
    expect(result.unavailable[0]!.source).toBe('sagemaker-studio (eu-west-1)');
    expect(result.unavailable[0]!.error).toContain('sagemaker:ListApps');
    expect(result.unavailable[0]!.error).not.toContain('AKID');

    await deliverOutbox(deps);
    const texts = chat.posted.map((p) => renderPlainText(p.message));
    expect(texts.filter((text) => text.includes('cv-notebook'))).toHaveLength(1);
    const notice = texts.find((text) => text.includes('GPU inventory sagemaker-studio (eu-west-1) could not be read'));
    expect(notice).toBeDefined();
    expect(notice).toContain('denied sagemaker:ListApps');
    expect(notice).toContain('open idle alerts stay as they were');

    // `/burnrate idle` answers with EC2's instance and says what it could not check.
    const asked = command(OWNER, 'idle');
    await dispatch(deps, asked);
    const answer = JSON.stringify(asked.reply);
    expect(answer).toContain('cv-notebook');
    expect(answer).toContain('Not checked**: GPU inventory sagemaker-studio (eu-west-1) could not be read');
    expect(answer).toContain('sagemaker:ListApps');
    await deps.store.close();
  });

  it('leaves an open finding of a machine whose source failed as it was (no resolution, no second alert), and the next good run goes on from it', async () => {
    const { deps, chat } = setup();
    const first = await runGpuCheck(deps);
    expect(first.findings.map((f) => f.instanceId).sort()).toEqual([IDLE_EC2, ...STUDIO_IDLE()].sort());
    await deliverOutbox(deps);
    const alertsBefore = idleAlerts(chat.posted.map((p) => renderPlainText(p.message))).length;
    const ec2Finding = (await deps.store.gpuFindings.listOpen()).find((f) => f.instanceId === IDLE_EC2)!;

    // EC2 stops answering DescribeInstances; Studio still answers.
    ec2!.deny('ec2:DescribeInstances');
    const outage = await runGpuCheck(deps);
    expect(outage.findings.map((f) => f.instanceId).sort()).toEqual(STUDIO_IDLE().sort());
    expect(outage.findings.every((f) => f.state === 'open')).toBe(true);
    expect(outage.unavailable.map((u) => u.source)).toEqual(['ec2 (eu-west-1)']);
    expect(outage.unavailable[0]!.error).toContain('ec2:DescribeInstances');
    // The EC2 finding is untouched: still open, last seen at the first run, its body as it was.
    expect((await deps.store.gpuFindings.listOpen()).find((f) => f.instanceId === IDLE_EC2)).toEqual(ec2Finding);
    // No idle alert, no resolution: only the notice naming the source.
    expect(outage.queued.map((d) => d.dedupeKey.split(':')[0])).toEqual(['gpu.inventory-unread']);

    // A Stop click meanwhile is not refused as "busy again" or "not in the inventory": it says to try again.
    const reply = await stopClick(deps, OWNER, IDLE_EC2);
    expect(ec2!.callsOf('StopInstances')).toEqual([]);
    expect(JSON.stringify(reply)).toContain('could not be read');
    expect(JSON.stringify(reply)).toContain('Try again once the source answers');

    // EC2 answers again: the same finding goes on, no second alert.
    ec2!.allow('ec2:DescribeInstances');
    const after = await runGpuCheck(deps);
    expect(after.unavailable).toEqual([]);
    const ec2Now = after.findings.find((f) => f.instanceId === IDLE_EC2)!;
    expect([ec2Now.id, ec2Now.state]).toEqual([ec2Finding.id, 'open']);
    await deliverOutbox(deps);
    expect(idleAlerts(chat.posted.map((p) => renderPlainText(p.message))).filter((t) => !t.includes('could not be read'))).toHaveLength(
      alertsBefore,
    );
    await deps.store.close();
  });

  it('with every source failing, reports each failure and changes no finding', async () => {
    const { deps } = setup();
    await runGpuCheck(deps);
    const before = await deps.store.gpuFindings.listOpen();
    expect(before).toHaveLength(4);

    ec2!.deny('ec2:DescribeInstances');
    sagemaker!.denied.add('ListDomains');
    const result = await runGpuCheck(deps);

    expect(result.findings).toEqual([]);
    expect(result.unavailable.map((u) => u.source)).toEqual(['ec2 (eu-west-1)', 'sagemaker-studio (eu-west-1)']);
    expect(result.unavailable.map((u) => u.error)).toEqual([
      expect.stringContaining('ec2:DescribeInstances'),
      expect.stringContaining('sagemaker:ListDomains'),
    ]);
    expect(await deps.store.gpuFindings.listOpen()).toEqual(before);
    expect(result.queued.map((d) => d.dedupeKey.split(':')[0])).toEqual(['gpu.inventory-unread', 'gpu.inventory-unread']);
    await deps.store.close();
  });
});

describe('who hears that a GPU inventory cannot be read', () => {
  const noticesTo = (chat: RecordingChat) =>
    chat.posted
      .filter((p) => renderPlainText(p.message).includes('GPU inventory ec2 (eu-west-1) could not be read'))
      .map((p) => p.address)
      .sort();

  it('the teams whose machines were on it at its last read, and the unowned channel; a team with nothing there hears nothing, and once a day', async () => {
    const { deps, chat } = setup({ unowned: true, teams: [{ id: 'vision' }] });
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    ec2!.deny('ec2:DescribeInstances');

    // Two replicas at once, then a later run the same day: each recipient is told once.
    await Promise.all([runGpuCheck(deps), runGpuCheck(deps)]);
    await runGpuCheck(deps);
    await deliverOutbox(deps);

    expect(noticesTo(chat)).toEqual(['#_unowned', '#research']);
    await deps.store.close();
  });

  it("an open idle alert of the source's machine brings in its team, though the machine was handed to it since", async () => {
    const { deps, chat } = setup({ teams: [{ id: 'vision' }] });
    await runGpuCheck(deps);
    const finding = (await deps.store.gpuFindings.listOpen()).find((f) => f.instanceId === IDLE_EC2)!;
    const drafts = unreadInventoryNotices(
      deps,
      [{ source: 'ec2 (eu-west-1)', error: 'denied', lastRead: [{ instanceId: IDLE_EC2, team: 'research' }] }],
      [{ instanceId: finding.instanceId, team: 'vision' }],
      deps.clock(),
    );
    expect(drafts.map((d) => d.target).sort()).toEqual(['fake:#research', 'fake:#vision']);
    expect(chat.posted).toEqual([]);
    await deps.store.close();
  });

  it('a source not read since the start: the unowned channel where one is named, else every team', async () => {
    ec2!.deny('ec2:DescribeInstances');
    const named = setup({ unowned: true, teams: [{ id: 'vision' }] });
    await runGpuCheck(named.deps);
    await deliverOutbox(named.deps);
    expect(noticesTo(named.chat)).toEqual(['#_unowned']);
    await named.deps.store.close();

    const none = setup({ teams: [{ id: 'vision' }] });
    await runGpuCheck(none.deps);
    await deliverOutbox(none.deps);
    expect(noticesTo(none.chat)).toEqual(['#research', '#vision']);
    await none.deps.store.close();
  });
});

describe('burnrate idle and recommend on the command line with one inventory unread', () => {
  it('list the readable machines and name the unread source in their text and their --json', async () => {
    sagemaker!.denied.add('ListApps');
    const cwd = workDir();
    writeFileSync(
      join(cwd, 'burnrate.yml'),
      stringify({
        teams: [{ id: 'research', owners: [OWNER] }],
        sources: [],
        gpu: {
          metrics: [{ type: 'prometheus', url: prom!.url }],
          inventory: [
            { type: 'ec2', regions: ['eu-west-1'] },
            { type: 'sagemaker-studio', regions: ['eu-west-1'] },
          ],
        },
      }),
    );

    const json = await cli(['idle', '--json'], { cwd, now: NOW });
    expect(json.err).toBe('');
    const read = JSON.parse(json.out) as { idle: { instanceId: string }[]; unavailable: { source: string; error: string }[] };
    expect(read.idle.map((f) => f.instanceId)).toEqual([IDLE_EC2]);
    expect(read.unavailable.map((u) => u.source)).toEqual(['sagemaker-studio (eu-west-1)']);
    expect(read.unavailable[0]!.error).toContain('sagemaker:ListApps');

    const text = await cli(['idle'], { cwd, now: NOW });
    expect(text.out).toContain('cv-notebook');
    expect(text.out).toContain('sagemaker-studio (eu-west-1)');

    const recommend = await cli(['recommend', '--json'], { cwd, now: NOW });
    expect(recommend.err).toBe('');
    const advised = JSON.parse(recommend.out) as { unavailable: { source: string; error: string }[] };
    expect(advised.unavailable.map((u) => [u.source, u.error.includes('sagemaker:ListApps')])).toEqual([
      ['sagemaker-studio (eu-west-1)', true],
    ]);
    expect((await cli(['recommend'], { cwd, now: NOW })).out).toContain('sagemaker-studio (eu-west-1)');
  });
});
