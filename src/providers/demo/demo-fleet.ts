import { loadPriceCatalog } from '../../catalog/price-catalog.js';
import type { CloudProvider, PriceCatalog } from '../../domain/price-catalog.js';
import type { Activity, DemoInstance, DemoPricing, Lifecycle, RunPattern, WorkloadKind } from './demo-instance.js';
import { randomFor, type Random } from './random.js';
import { round4 } from './demo-schedule.js';
import { LAUNCH_TEMPLATE_TAG } from '../../ports/spot-port.js';
import { DEMO_RUN_TAG } from './demo-unit-tags.js';
import { DEMO_AZURE_VMS, demoAzureVmId } from './demo-azure.js';

/**
 * The demo organisation's GPU fleet: who runs what, where, at which catalog price, and when it runs.
 * Spend rows (demo-spend.ts) are hours running x hourly price; later GPU checks can derive utilisation
 * from the same intervals and their activity, so both views of the demo always agree.
 */

/** 1-year Savings Plan rate as a share of on-demand: vantage's reserved/on-demand for p4d.24xlarge us-east-1 (13.92/21.96). */
export const COMMITTED_RATE = 0.634;

// ---- the organisation ---------------------------------------------------------------------------

interface Template {
  key: string;
  name: string;
  provider: CloudProvider;
  region: string;
  instanceType: string;
  lifecycle: Lifecycle;
  committed?: boolean;
  workload: WorkloadKind;
  team: { key: string; value: string } | null;
  owner: string | null;
  extraTags?: Record<string, string>;
  /** Share of GPU memory its sessions hold, when not the usual for its activity (a small model on a big GPU). */
  memoryShare?: readonly [number, number];
  /**
   * The multi-node run this node belongs to (its run tag): the nodes of one run start, stop and idle
   * together, in one placement zone, so their schedule, zone and pattern come from the run, not the node.
   */
  run?: string;
  /** An Azure VM's subscription and resource group: its resource id names it. */
  azure?: { subscription: string; resourceGroup: string };
  pattern: (r: Random) => RunPattern;
}

/** Accounts (AWS) and projects (GCP) of the demo organisation, by team tag value's team. */
export const DEMO_ACCOUNTS = {
  aws: {
    payer: '381492650173',
    llm: '472019385561',
    research: '530718264490',
    inference: '618204937715',
    vision: '704153826649',
    /** The vision team's Tokyo account, billed in yen by AWS Japan. */
    visionTokyo: '704153826650',
    sandbox: '815630492278',
  },
  gcp: {
    billing: '01F4D2-8C3A7B-9E61D0',
    llm: 'llm-train-prod',
    research: 'research-sandbox',
    vision: 'cv-platform',
    shared: 'shared-data',
  },
} as const;

const runs =
  (cycle: [number, number], gap: [number, number], skipChance: number, idleTailChance = 0.2) =>
  (r: Random): RunPattern => ({
    kind: 'runs',
    cycleDays: r.int(cycle[0], cycle[1]),
    phaseDays: r.int(0, 13),
    gapHours: [gap[0], gap[1]],
    skipChance,
    idleTailChance,
    idleTailHours: [2, 9],
  });
const workdays =
  (startHourUtc: number, overnightChance: number, weekendChance: number) =>
  (r: Random): RunPattern => ({
    kind: 'workdays',
    startHourUtc: startHourUtc + r.int(-1, 1) * 0.5,
    sessionHours: [7, 11],
    overnightChance,
    weekendChance,
  });
const bursts =
  (burstChance: number, hours: [number, number]) =>
  (r: Random): RunPattern => ({
    kind: 'bursts',
    cycleDays: 7,
    phaseDays: r.int(0, 6),
    burstChance,
    burstHours: [hours[0], hours[1]],
  });
const always = (activity: Activity) => (): RunPattern => ({ kind: 'always', activity });
const businessHours = (startHourUtc: number, hours: number) => (): RunPattern => ({ kind: 'business-hours', startHourUtc, hours });

const ckpt = (interval: string) => ({ checkpoint: 'true', 'checkpoint-interval': interval });
const tag = (value: string, key = 'team') => ({ key, value });

/** The run tag of the pre-training cluster's nodes: one run, resumed from its checkpoints after every stop. */
export const PRETRAIN_RUN = 'llm-pretrain-70b';

const LLM = 'U0DEMOCAROL';
const LLM2 = 'U0DEMODAN';
const RES = 'U0DEMOALICE';
const RES2 = 'U0DEMOBOB';
const INF = 'U0DEMOERIN';
const INF2 = 'U0DEMOFRANK';
const CV = 'U0DEMOGRACE';
const CV2 = 'U0DEMOHEIDI';

/** The fleet's composition is fixed; the seed picks ids, zones, cycle lengths and phases. */
const TEMPLATES: readonly Template[] = [
  // llm-training: a three-node 8xH100 pre-training run (two nodes' worth on a Savings Plan), fine-tuning on spot, sweeps.
  // The nodes carry one run tag: spot is never advised for one node of a multi-node run (a reclaim stops all three).
  ...[0, 1, 2].map(
    (i): Template => ({
      key: `llm-pretrain-${i}`,
      name: `llm-pretrain-node-${i}`,
      provider: 'aws',
      region: 'us-east-1',
      instanceType: 'p5.48xlarge',
      lifecycle: 'on-demand',
      committed: i > 0,
      workload: 'training',
      team: tag(i === 2 ? 'LLM' : 'llm-training'),
      owner: LLM,
      extraTags: ckpt('30m'),
      run: PRETRAIN_RUN,
      pattern: runs([7, 11], [4, 20], 0),
    }),
  ),
  {
    key: 'llm-pretrain-gcp',
    name: 'llm-pretrain-a3-0',
    provider: 'gcp',
    region: 'us-central1',
    instanceType: 'a3-highgpu-8g',
    lifecycle: 'on-demand',
    workload: 'training',
    team: tag('llm-training'),
    owner: LLM,
    extraTags: ckpt('1h'),
    pattern: runs([6, 9], [6, 30], 0),
  },
  ...[0, 1].map(
    (i): Template => ({
      key: `llm-finetune-${i}`,
      name: `llm-finetune-${i}`,
      provider: 'aws',
      region: 'us-west-2',
      instanceType: 'p4de.24xlarge',
      lifecycle: 'spot',
      workload: 'training',
      team: tag('llm'),
      owner: LLM2,
      extraTags: ckpt('15m'),
      pattern: runs([3, 5], [6, 24], 0.15),
    }),
  ),
  {
    key: 'llm-eval',
    name: 'llm-eval-a100',
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'p4d.24xlarge',
    lifecycle: 'on-demand',
    workload: 'training',
    team: tag('llm-training', 'user:team'),
    owner: LLM2,
    extraTags: ckpt('1h'),
    pattern: runs([2, 4], [8, 30], 0.2, 0.35),
  },
  {
    key: 'llm-rlhf',
    name: 'llm-rlhf-h200',
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'p5en.48xlarge',
    lifecycle: 'spot',
    workload: 'training',
    team: tag('llm-training'),
    owner: LLM,
    extraTags: ckpt('20m'),
    pattern: runs([4, 7], [6, 24], 0.1),
  },
  ...[0, 1, 2, 3].map(
    (i): Template => ({
      key: `llm-sweep-${i}`,
      name: `llm-sweep-${i}`,
      provider: 'aws',
      region: 'us-east-1',
      instanceType: 'g5.12xlarge',
      lifecycle: 'spot',
      workload: 'sweep',
      team: tag('llm'),
      owner: LLM2,
      extraTags: { sweep: 'lr-warmup' },
      pattern: bursts(0.8, [30, 60]),
    }),
  ),
  {
    key: 'llm-nb-carol',
    name: 'carol-notebook',
    provider: 'aws',
    region: 'us-west-2',
    instanceType: 'g6e.xlarge',
    lifecycle: 'on-demand',
    workload: 'notebook',
    team: tag('llm-training'),
    owner: LLM,
    pattern: workdays(16, 0.15, 0.35),
  },
  // Prototypes a 7B adapter that needs a quarter of the L40S's memory: the demo's right-size candidate.
  {
    key: 'llm-nb-dan',
    name: 'dan-notebook',
    provider: 'aws',
    region: 'us-west-2',
    instanceType: 'g6e.2xlarge',
    lifecycle: 'on-demand',
    workload: 'notebook',
    team: tag('llm-training'),
    owner: LLM2,
    memoryShare: [0.15, 0.28],
    pattern: workdays(17, 0.1, 0.1),
  },

  // ml-research: A100 training on spot and on GCP, notebooks in Frankfurt, weekly sweeps, one old V100 box.
  {
    key: 'res-train-a100',
    name: 'research-train-a100',
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'p4d.24xlarge',
    lifecycle: 'spot',
    workload: 'training',
    team: tag('research'),
    owner: RES,
    extraTags: ckpt('30m'),
    pattern: runs([4, 7], [8, 30], 0.15),
  },
  // On-demand, checkpointing every 30 minutes, launched from a launch template: the demo's candidate for moving to spot.
  {
    key: 'res-train-fra',
    name: 'research-train-fra',
    provider: 'aws',
    region: 'eu-central-1',
    instanceType: 'p4d.24xlarge',
    lifecycle: 'on-demand',
    workload: 'training',
    team: tag('ml-research'),
    owner: RES,
    extraTags: { ...ckpt('30m'), [LAUNCH_TEMPLATE_TAG]: 'lt-0a3f9c1e7d2b4a6c8' },
    pattern: runs([4, 7], [8, 36], 0),
  },
  {
    key: 'res-train-gcp',
    name: 'research-a2-8g',
    provider: 'gcp',
    region: 'us-central1',
    instanceType: 'a2-highgpu-8g',
    lifecycle: 'on-demand',
    workload: 'training',
    team: tag('ml-research'),
    owner: RES2,
    extraTags: ckpt('2h'),
    pattern: runs([5, 8], [12, 48], 0),
  },
  {
    key: 'res-nb-alice',
    name: 'alice-notebook',
    provider: 'aws',
    region: 'eu-central-1',
    instanceType: 'g5.xlarge',
    lifecycle: 'on-demand',
    workload: 'notebook',
    team: tag('ml-research'),
    owner: RES,
    pattern: workdays(7, 0.2, 0.5),
  },
  {
    key: 'res-nb-bob',
    name: 'bob-notebook',
    provider: 'aws',
    region: 'eu-central-1',
    instanceType: 'g6e.xlarge',
    lifecycle: 'on-demand',
    workload: 'notebook',
    team: tag('research', 'Team'),
    owner: RES2,
    pattern: workdays(8, 0.1, 0.05),
  },
  {
    key: 'res-nb-shared',
    name: 'research-shared-notebook',
    provider: 'aws',
    region: 'eu-central-1',
    instanceType: 'g5.2xlarge',
    lifecycle: 'on-demand',
    workload: 'notebook',
    team: tag('ml-research'),
    owner: RES,
    pattern: workdays(8, 0.25, 0.2),
  },
  ...[0, 1].map(
    (i): Template => ({
      key: `res-sweep-${i}`,
      name: `research-sweep-${i}`,
      provider: 'aws',
      region: 'us-east-1',
      instanceType: 'g5.12xlarge',
      lifecycle: 'spot',
      workload: 'sweep',
      team: tag('research'),
      owner: RES2,
      extraTags: { sweep: 'ablation' },
      pattern: bursts(0.7, [24, 48]),
    }),
  ),
  // The old V100 box: its last experiment ended weeks ago and nobody stopped it, so ml-research
  // always has an idle GPU to be told about, whatever the hour the demo starts.
  {
    key: 'res-legacy-v100',
    name: 'research-legacy-v100',
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'p3.2xlarge',
    lifecycle: 'spot',
    workload: 'training',
    team: tag('research'),
    owner: RES,
    pattern: always('idle'),
  },

  // inference: small endpoints always on; replicas follow US weekday traffic (06:00-20:00 New York), and
  // weekends are quiet, so half the weekly budget is gone by Wednesday.
  {
    key: 'inf-llm-0',
    name: 'serve-llm-primary',
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'g6e.4xlarge',
    lifecycle: 'on-demand',
    workload: 'inference',
    team: tag('inference'),
    owner: INF,
    pattern: always('serving'),
  },
  ...[0, 1].map(
    (i): Template => ({
      key: `inf-embed-${i}`,
      name: `serve-embed-${i}`,
      provider: 'aws',
      region: 'us-east-1',
      instanceType: 'g5.2xlarge',
      lifecycle: 'on-demand',
      workload: 'inference',
      team: tag('serving'),
      owner: INF2,
      pattern: always('serving'),
    }),
  ),
  // The reranker the search service stopped calling: still up, serving nothing (inference's idle GPU at any hour).
  {
    key: 'inf-rerank',
    name: 'serve-rerank',
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'g6.xlarge',
    lifecycle: 'on-demand',
    workload: 'inference',
    team: tag('serving'),
    owner: INF2,
    pattern: always('idle'),
  },
  ...[0, 1, 2, 3, 4].map(
    (i): Template => ({
      key: `inf-replica-${i}`,
      name: `serve-llm-replica-${i}`,
      provider: 'aws',
      region: 'us-east-1',
      instanceType: 'g6e.12xlarge',
      lifecycle: 'on-demand',
      workload: 'inference',
      team: tag('inference'),
      owner: INF,
      extraTags: { autoscaling: 'serve-llm' },
      pattern: businessHours(10, 14),
    }),
  ),

  // vision: GCP training and notebooks in Tokyo (the team sits in India), a demo endpoint, nightly batch jobs.
  {
    key: 'cv-train-gcp',
    name: 'cv-train-a2-4g',
    provider: 'gcp',
    region: 'us-central1',
    instanceType: 'a2-highgpu-4g',
    lifecycle: 'on-demand',
    workload: 'training',
    team: tag('vision'),
    owner: CV,
    extraTags: ckpt('1h'),
    pattern: runs([4, 7], [6, 30], 0.2),
  },
  {
    key: 'cv-nb-grace',
    name: 'grace-notebook',
    provider: 'gcp',
    region: 'asia-northeast1',
    instanceType: 'g2-standard-8',
    lifecycle: 'on-demand',
    workload: 'notebook',
    team: tag('cv'),
    owner: CV,
    pattern: workdays(3, 0.2, 0.3),
  },
  {
    key: 'cv-nb-heidi',
    name: 'heidi-notebook',
    provider: 'aws',
    region: 'ap-northeast-1',
    instanceType: 'g4dn.xlarge',
    lifecycle: 'on-demand',
    workload: 'notebook',
    team: tag('vision'),
    owner: CV2,
    pattern: workdays(3.5, 0.1, 0.1),
  },
  // Up since the last customer demo and called by nobody since: vision's idle GPU at any hour.
  {
    key: 'cv-serve',
    name: 'cv-demo-endpoint',
    provider: 'aws',
    region: 'ap-northeast-1',
    instanceType: 'g6.xlarge',
    lifecycle: 'on-demand',
    workload: 'inference',
    team: tag('vision'),
    owner: CV2,
    pattern: always('idle'),
  },
  {
    key: 'cv-batch',
    name: 'cv-batch-labeler',
    provider: 'aws',
    region: 'us-west-2',
    instanceType: 'g5.12xlarge',
    lifecycle: 'on-demand',
    workload: 'sweep',
    team: tag('cv'),
    owner: CV,
    pattern: bursts(0.6, [8, 20]),
  },

  // The usual strays: a box nobody tagged, and a team burnrate does not know.
  {
    key: 'stray-untagged',
    name: 'tmp-debug-box',
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'g5.12xlarge',
    lifecycle: 'on-demand',
    workload: 'notebook',
    team: null,
    owner: null,
    pattern: always('idle'),
  },
  {
    key: 'stray-growth',
    name: 'growth-ranker-notebook',
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'g6e.2xlarge',
    lifecycle: 'on-demand',
    workload: 'notebook',
    team: tag('growth-ml'),
    owner: null,
    pattern: workdays(14, 0.3, 0.2),
  },

  // Azure: GPUs found where AWS had none (demo-azure.ts).
  ...DEMO_AZURE_VMS.map(
    (vm): Template => ({
      key: vm.key,
      name: vm.name,
      provider: 'azure',
      region: vm.region,
      instanceType: vm.instanceType,
      lifecycle: vm.lifecycle,
      workload: vm.workload,
      team: tag(vm.team),
      owner: vm.team === 'vision' ? CV : RES2,
      azure: { subscription: vm.subscription, resourceGroup: vm.resourceGroup },
      pattern: () => vm.pattern,
    }),
  ),
];

/** GCP instance ids are 19-digit numbers: built digit by digit (they exceed a double's precision). */
function numericId(r: Random): string {
  let id = String(r.int(1, 9));
  while (id.length < 19) id += String(r.int(0, 9));
  return id;
}

function subAccountOf(t: Template): string {
  const value = t.team?.value.toLowerCase() ?? '';
  const team = value.startsWith('llm')
    ? 'llm'
    : value.includes('research')
      ? 'research'
      : ['inference', 'serving'].includes(value)
        ? 'inference'
        : ['vision', 'cv'].includes(value)
          ? 'vision'
          : null;
  if (t.azure) return t.azure.subscription;
  if (t.provider === 'gcp')
    return team === 'llm' || team === 'research' || team === 'vision' ? DEMO_ACCOUNTS.gcp[team] : DEMO_ACCOUNTS.gcp.shared;
  return team ? DEMO_ACCOUNTS.aws[team] : DEMO_ACCOUNTS.aws.sandbox;
}

/** The demo organisation's GPU instances (41), deterministic for a seed. Prices come from the catalog. */
export function demoFleet(seed: number, catalog: PriceCatalog = loadPriceCatalog()): DemoInstance[] {
  return TEMPLATES.map((t) => {
    const r = randomFor(seed, 'fleet', t.key);
    // A run's nodes draw zone, pattern and schedule from the run's stream (same draws, same order).
    const shared = t.run ? randomFor(seed, 'fleet-run', t.run) : r;
    const price = catalog.priceOf(t.provider, t.instanceType, t.region);
    if (!price) throw new Error(`demo fleet: ${t.provider} ${t.instanceType} in ${t.region} is not in the price catalog`);
    const hourly = t.lifecycle === 'spot' ? price.spotHourly : price.onDemandHourly;
    if (hourly === null) throw new Error(`demo fleet: no spot price for ${t.instanceType} in ${t.region}`);
    const pricing: DemoPricing = t.lifecycle === 'spot' ? 'Dynamic' : t.committed ? 'Committed' : 'Standard';
    const zones = ['a', 'b', 'c'];
    const nodeZone = r.pick(zones);
    const zoneLetter = t.run ? shared.pick(zones) : nodeZone;
    const zone = t.provider === 'aws' ? `${t.region}${zoneLetter}` : `${t.region}-${zoneLetter}`;
    const instanceId = t.azure ? demoAzureVmId({ ...t.azure, name: t.name }) : t.provider === 'aws' ? `i-0${r.hex(16)}` : numericId(r);
    const tags: Record<string, string> = { Name: t.name, workload: t.workload, ...(t.extraTags ?? {}) };
    if (t.team) tags[t.team.key] = t.team.value;
    if (t.run) tags[DEMO_RUN_TAG] = t.run;
    return {
      instanceId,
      name: t.name,
      provider: t.provider,
      subAccount: subAccountOf(t),
      region: t.region,
      zone,
      instanceType: t.instanceType,
      gpuModel: price.gpuModel,
      gpuCount: price.gpuCount,
      gpuMemoryGiB: price.gpuMemoryGiB,
      lifecycle: t.lifecycle,
      pricing,
      hourlyPrice: hourly,
      effectiveHourly: pricing === 'Committed' ? round4(hourly * COMMITTED_RATE) : hourly,
      teamTag: t.team?.value ?? null,
      tags,
      workload: t.workload,
      owner: t.owner,
      protected: t.workload === 'inference',
      pattern: t.pattern(shared),
      memoryShare: t.memoryShare ?? null,
      scheduleSeed: shared.int(0, 0x7fffffff),
    };
  });
}

export { dayIntervals, dayNumber, hoursOn } from './demo-schedule.js';
