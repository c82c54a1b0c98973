import { compareRefs, type GpuSeries, type MetricsRange } from '../../domain/gpu-metrics.js';
import { sampleCountOf } from '../../domain/gpu-step-grid.js';
import {
  ANNOTATIONS,
  workloadKey,
  type ClusterInventory,
  type GpuNode,
  type GpuPod,
  type WorkloadKind,
  type WorkloadRef,
} from '../../domain/kubernetes.js';
import type { GpuMetricsSource } from '../../ports/gpu-metrics-source.js';
import type { WorkloadPort, WorkloadResumeResult, WorkloadStopResult } from '../../ports/workload-port.js';
import { randomFor } from './random.js';

/**
 * The demo organisation's Kubernetes cluster, `demo-gpu`: two GPU node pools shared by the teams.
 *
 * - `gpu-shared` (Karpenter, two g6e.12xlarge, 4 L40S each): Kubeflow notebooks of vision (Grace's,
 *   Heidi's) and llm-training (Carol's), used in office hours and idle overnight and at weekends,
 *   ml-research's Ray job `sweep-lr` (two busy workers), and the KServe InferenceService `chat`
 *   (2 GPUs, serving traffic); one GPU no pod requests.
 * - `a100-static` (an EKS node group of one p4d.24xlarge, 8 A100): llm-training's `eval-server`
 *   Deployment on 2 GPUs, idle for days; the other 6 GPUs requested by nobody, and the group never
 *   scales to zero: static capacity.
 *
 * Its namespaces carry the team label. It runs in memory: Stop scales a workload to zero (its pods
 * go), Resume brings them back, Keep writes the keep annotation. Its layout has been the same for
 * the demo's days, so its usage history starts `days` before the first sample.
 */
export class DemoCluster {
  readonly name = 'demo-gpu';
  private readonly nodes: GpuNode[];
  private pods: GpuPod[];
  private readonly stopped = new Map<string, { pods: GpuPod[]; by: string }>();
  private readonly annotations = new Map<string, Record<string, string>>();

  constructor(private readonly seed: number) {
    this.nodes = NODES.map((n) => nodeOf(this.name, n));
    this.pods = PODS.map((p) => podOf(this.name, p));
  }

  inventory(): ClusterInventory {
    return {
      cluster: this.name,
      nodes: this.nodes,
      pods: [...this.pods],
      namespaces: NAMESPACES.map(([name, team]) => ({ name, labels: { team }, annotations: {} })),
      workloadAnnotations: new Map([...this.annotations].map(([key, value]) => [key, { ...value }])),
    };
  }

  /** DCGM series of the running pods' GPUs, labelled with their pods, as dcgm-exporter reports them. */
  readonly metrics: GpuMetricsSource = {
    id: 'demo-cluster',
    type: 'demo',
    fetch: async (range) => this.series(range),
  };

  readonly workloads: WorkloadPort = {
    stop: async (ref, { dryRun, by }): Promise<WorkloadStopResult> => {
      const key = workloadKey(ref);
      const pods = this.pods.filter((p) => workloadKey(p.workload) === key);
      if (pods.length === 0) return { outcome: 'already-stopped', detail: `${label(ref)} was stopped already`, previousReplicas: null };
      if (ref.kind === 'Pod') return { outcome: 'refused', detail: `${label(ref)} has no controller to scale`, previousReplicas: null };
      if (!dryRun) {
        this.pods = this.pods.filter((p) => workloadKey(p.workload) !== key);
        this.stopped.set(key, { pods, by });
      }
      const what = SUSPENDED.includes(ref.kind) ? 'suspended' : `scaled from ${pods.length} to 0 replicas`;
      return { outcome: dryRun ? 'would-stop' : 'stopped', detail: `${label(ref)} ${what}`, previousReplicas: pods.length };
    },
    resume: async (ref, { dryRun }): Promise<WorkloadResumeResult> => {
      const key = workloadKey(ref);
      const stopped = this.stopped.get(key);
      if (!stopped) return { outcome: 'not-stopped', detail: `${label(ref)} was not stopped by burnrate`, restoredReplicas: null };
      if (!dryRun) {
        this.pods.push(...stopped.pods);
        this.stopped.delete(key);
      }
      return {
        outcome: dryRun ? 'would-resume' : 'resumed',
        detail: `${label(ref)} back to ${stopped.pods.length}`,
        restoredReplicas: stopped.pods.length,
      };
    },
    keep: async (ref, until, by) => {
      const key = workloadKey(ref);
      this.annotations.set(key, { ...this.annotations.get(key), [ANNOTATIONS.keepUntil]: until.toISOString(), [ANNOTATIONS.keptBy]: by });
    },
  };

  private series(range: MetricsRange): GpuSeries[] {
    const n = sampleCountOf(range);
    const times = new Float64Array(n);
    for (let i = 0; i < n; i++) times[i] = range.start + i * range.stepSeconds;
    const out: GpuSeries[] = [];
    for (const pod of this.pods) {
      const spec = PODS.find((p) => p.name === pod.name)!;
      for (let g = 0; g < pod.gpus; g++) {
        const gpu = String(spec.firstGpu + g);
        const util = new Float32Array(n);
        const mem = new Float32Array(n);
        const power = new Float32Array(n);
        for (let i = 0; i < n; i++) {
          const t = times[i]!;
          const r = randomFor(this.seed, pod.name, g, Math.floor(t / 600));
          const busy = activity(spec.activity, t, r.next());
          util[i] = busy;
          mem[i] = spec.activity === 'idle' ? 600 : busy > 5 ? 30_000 : 12_000;
          power[i] = 40 + busy * 2.8;
        }
        out.push({
          ref: { host: pod.node!, gpu, model: spec.model, namespace: pod.namespace, pod: pod.name, container: 'main' },
          times,
          util,
          power,
          memUsedMiB: mem,
        });
      }
    }
    return out.sort(compareRefs);
  }
}

type Activity = 'office' | 'busy' | 'serving' | 'idle';

/** Utilisation at time t: notebooks work 08:00–17:00 UTC on weekdays, idle otherwise; `noise` in [0, 1). */
function activity(kind: Activity, t: number, noise: number): number {
  const date = new Date(t * 1000);
  const hour = date.getUTCHours();
  const weekday = date.getUTCDay() >= 1 && date.getUTCDay() <= 5;
  switch (kind) {
    case 'office':
      return weekday && hour >= 8 && hour < 17 ? 20 + noise * 50 : noise * 2;
    case 'busy':
      return 85 + noise * 13;
    case 'serving':
      return 25 + noise * 40;
    case 'idle':
      return noise * 1.5;
  }
}

const SUSPENDED: readonly WorkloadKind[] = ['Job', 'RayJob', 'RayCluster'];
const label = (ref: WorkloadRef) => `${ref.kind} ${ref.namespace}/${ref.name}`;

const NAMESPACES: readonly [string, string][] = [
  ['research', 'ml-research'],
  ['llm', 'llm-training'],
  ['serving', 'inference'],
  ['cv', 'vision'],
];

interface NodeSpec {
  name: string;
  type: string;
  gpus: number;
  instanceId: string;
  zone: string;
  labels: Record<string, string>;
}

const NODES: readonly NodeSpec[] = [
  ...[1, 2].map((i) => ({
    name: `ip-10-20-1-${10 + i}.ec2.internal`,
    type: 'g6e.12xlarge',
    gpus: 4,
    instanceId: `i-0de30c1a5e00000${i}`,
    zone: 'us-east-1a',
    labels: { 'karpenter.sh/nodepool': 'gpu-shared', 'karpenter.sh/capacity-type': 'on-demand' },
  })),
  {
    name: 'ip-10-20-2-30.ec2.internal',
    type: 'p4d.24xlarge',
    gpus: 8,
    instanceId: 'i-0de30c1a5e000003',
    zone: 'us-east-1b',
    labels: { 'eks.amazonaws.com/nodegroup': 'a100-static', 'eks.amazonaws.com/capacityType': 'ON_DEMAND' },
  },
];

interface PodSpec {
  namespace: string;
  name: string;
  node: number;
  firstGpu: number;
  gpus: number;
  model: string;
  kind: WorkloadKind;
  workload: string;
  activity: Activity;
  owner?: string;
}

const L40S = 'NVIDIA L40S';
const A100 = 'NVIDIA A100-SXM4-40GB';
const PODS: readonly PodSpec[] = [
  {
    namespace: 'cv',
    name: 'grace-nb-0',
    node: 0,
    firstGpu: 0,
    gpus: 1,
    model: L40S,
    kind: 'Notebook',
    workload: 'grace-nb',
    activity: 'office',
    owner: 'U0DEMOGRACE',
  },
  {
    namespace: 'cv',
    name: 'heidi-nb-0',
    node: 0,
    firstGpu: 1,
    gpus: 1,
    model: L40S,
    kind: 'Notebook',
    workload: 'heidi-nb',
    activity: 'office',
    owner: 'U0DEMOHEIDI',
  },
  {
    namespace: 'research',
    name: 'sweep-lr-raycluster-worker-0',
    node: 0,
    firstGpu: 2,
    gpus: 1,
    model: L40S,
    kind: 'RayJob',
    workload: 'sweep-lr',
    activity: 'busy',
  },
  {
    namespace: 'research',
    name: 'sweep-lr-raycluster-worker-1',
    node: 0,
    firstGpu: 3,
    gpus: 1,
    model: L40S,
    kind: 'RayJob',
    workload: 'sweep-lr',
    activity: 'busy',
  },
  {
    namespace: 'llm',
    name: 'carol-nb-0',
    node: 1,
    firstGpu: 0,
    gpus: 1,
    model: L40S,
    kind: 'Notebook',
    workload: 'carol-nb',
    activity: 'office',
    owner: 'U0DEMOCAROL',
  },
  {
    namespace: 'serving',
    name: 'chat-predictor-00001-deployment-7c9f-x2x4q',
    node: 1,
    firstGpu: 1,
    gpus: 2,
    model: L40S,
    kind: 'InferenceService',
    workload: 'chat',
    activity: 'serving',
  },
  {
    namespace: 'llm',
    name: 'eval-server-6d5b8-qx7rt',
    node: 2,
    firstGpu: 0,
    gpus: 2,
    model: A100,
    kind: 'Deployment',
    workload: 'eval-server',
    activity: 'idle',
    owner: 'U0DEMODAN',
  },
];

function nodeOf(cluster: string, spec: NodeSpec): GpuNode {
  const pool = spec.labels['karpenter.sh/nodepool'] ?? spec.labels['eks.amazonaws.com/nodegroup']!;
  return {
    cluster,
    name: spec.name,
    instanceType: spec.type,
    capacityType: 'on-demand',
    nodePool: pool,
    instanceId: spec.instanceId,
    provider: 'aws',
    zone: spec.zone,
    gpus: spec.gpus,
    migSlices: {},
    labels: { ...spec.labels, 'node.kubernetes.io/instance-type': spec.type },
    createdAt: null,
  };
}

function podOf(cluster: string, spec: PodSpec): GpuPod {
  return {
    cluster,
    namespace: spec.namespace,
    name: spec.name,
    node: NODES[spec.node]!.name,
    gpus: spec.gpus,
    workload: { cluster, kind: spec.kind, namespace: spec.namespace, name: spec.workload },
    labels: spec.owner ? { owner: spec.owner } : {},
    annotations: {},
    startedAt: null,
  };
}
