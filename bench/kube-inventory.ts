// A large cluster read and checked: `nodes` GPU nodes of 8 GPUs (half offered by a DRA driver in
// ResourceSlices, half by the device plugin) and `pods` GPU pods (every other one holding its GPU
// through a ResourceClaim, one claim in ten shared by two pods), served by a local API server that
// pages its lists as Kubernetes does. Timed: the inventory read through @kubernetes/client-node
// (every list, paged at 500); the workloads priced from it; one idle check's rules over 24 hours
// of one-minute DCGM series for every GPU, attributed to the workloads by pod. Heap and RSS after.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { loadPriceCatalog } from '../src/catalog/price-catalog.js';
import { idleFindings } from '../src/checks/idle/idle-findings.js';
import { idleInstanceOf } from '../src/checks/idle/idle-instance-of.js';
import { idlePolicy } from '../src/checks/idle/idle-policy.js';
import type { GpuSeries, MetricsRange } from '../src/domain/gpu-metrics.js';
import { createStepGrid } from '../src/domain/gpu-step-grid.js';
import { teamResolver } from '../src/domain/ownership.js';
import { ClusterInventoryReader } from '../src/providers/kubernetes/cluster-inventory.js';
import { workloadInstances } from '../src/providers/kubernetes/workload-instances.js';
import { attributeSeries } from '../src/snapshots/gpu-attribution.js';
import { median } from './stats.js';

export interface KubeInventoryBench {
  nodes: number;
  pods: number;
  claims: number;
  runs: number;
  /** Medians: the read (HTTP, paging, JSON), the workloads priced from it, the idle rules over their series. */
  readMs: number;
  workloadsMs: number;
  idleCheckMs: number;
  listRequests: number;
  workloads: number;
  gpusPriced: number;
  findings: number;
  samples: number;
  heapMb: number;
  rssMb: number;
}

const GPUS_PER_NODE = 8;

export async function benchKubeInventory(opts: { nodes: number; pods: number; runs: number }): Promise<KubeInventoryBench> {
  const cluster = generateCluster(opts.nodes, opts.pods);
  const server = await serveLists(cluster.lists);
  const config = new KubeConfig();
  config.loadFromString(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'bench', cluster: { server: server.url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'bench', user: { token: 'bench' } }],
      contexts: [{ name: 'bench', context: { cluster: 'bench', user: 'bench' } }],
      'current-context': 'bench',
    }),
  );
  const reader = new ClusterInventoryReader('bench', config);
  const context = {
    catalog: loadPriceCatalog(),
    resolveTeam: teamResolver([]),
    namespaceTeams: new Map<string, string>(),
    teamLabel: 'team',
    ownerKey: 'owner',
  };
  const end = 1_800_000_000;
  const range: MetricsRange = { start: end - 24 * 3600, end, stepSeconds: 60 };
  const grid = createStepGrid(range);
  const reads: number[] = [];
  const prices: number[] = [];
  const checks: number[] = [];
  let last = { workloads: 0, gpus: 0, findings: 0, samples: 0, requests: 0 };
  try {
    for (let run = 0; run < opts.runs; run++) {
      server.requests = 0;
      let t = performance.now();
      const inventory = await reader.read();
      reads.push(performance.now() - t);

      t = performance.now();
      const instances = workloadInstances(inventory, context);
      prices.push(performance.now() - t);

      // DCGM's series of every GPU, each labelled with the pod holding it (idle: zero throughout).
      const times = grid.times();
      const series: GpuSeries[] = [];
      const podOn = new Map<string, string[]>();
      for (const pod of inventory.pods) if (pod.node) podOn.set(pod.node, [...(podOn.get(pod.node) ?? []), `${pod.namespace}/${pod.name}`]);
      for (const node of inventory.nodes) {
        const pods = podOn.get(node.name) ?? [];
        for (let gpu = 0; gpu < GPUS_PER_NODE; gpu++) {
          const [namespace, pod] = (pods[gpu % Math.max(1, pods.length)] ?? '/').split('/');
          series.push({
            ref: { host: node.name, gpu: String(gpu), ...(pod ? { namespace, pod } : {}) },
            times,
            util: new Float32Array(times.length),
            power: null,
            memUsedMiB: null,
          });
        }
      }
      t = performance.now();
      const attributed = attributeSeries(instances, series, new Map());
      const findings = idleFindings({
        gpus: attributed.map(({ series: s, instance }) => ({ series: s, instance: idleInstanceOf(instance, undefined) })),
        policy: idlePolicy(),
        now: new Date(end * 1000),
        schedules: new Map(),
        range,
      });
      checks.push(performance.now() - t);
      last = {
        workloads: instances.length,
        gpus: instances.reduce((sum, i) => sum + i.gpuCount, 0),
        findings: findings.length,
        samples: series.length * times.length,
        requests: server.requests,
      };
    }
  } finally {
    await server.close();
  }
  const memory = process.memoryUsage();
  return {
    nodes: opts.nodes,
    pods: opts.pods,
    claims: cluster.claims,
    runs: opts.runs,
    readMs: Math.round(median(reads)),
    workloadsMs: Math.round(median(prices)),
    idleCheckMs: Math.round(median(checks)),
    listRequests: last.requests,
    workloads: last.workloads,
    gpusPriced: Math.round(last.gpus * 1000) / 1000,
    findings: last.findings,
    samples: last.samples,
    heapMb: Math.round(memory.heapUsed / 2 ** 20),
    rssMb: Math.round(memory.rss / 2 ** 20),
  };
}

export function printKubeInventory(r: KubeInventoryBench): void {
  console.log(
    `\nKubernetes inventory, ${r.nodes.toLocaleString('en-US')} GPU nodes × ${GPUS_PER_NODE} GPUs, ${r.pods.toLocaleString('en-US')} GPU pods (${r.claims.toLocaleString('en-US')} ResourceClaims), median of ${r.runs}:`,
  );
  console.log(`  read (${r.listRequests} paged list requests)   ${r.readMs} ms`);
  console.log(`  workloads priced (${r.workloads.toLocaleString('en-US')}, ${r.gpusPriced} GPUs)   ${r.workloadsMs} ms`);
  console.log(`  idle rules over ${(r.samples / 1e6).toFixed(1)} M samples (${r.findings} findings)   ${r.idleCheckMs} ms`);
  console.log(`  heap ${r.heapMb} MB, RSS ${r.rssMb} MB after the runs`);
}

interface Lists {
  [path: string]: unknown[];
}

/** The cluster's objects by list path: nodes, namespaces, pods, owners, and the DRA objects. */
function generateCluster(nodes: number, pods: number): { lists: Lists; claims: number } {
  const nodeObjects: unknown[] = [];
  const slices: unknown[] = [];
  for (let n = 0; n < nodes; n++) {
    const name = `ip-10-${(n >> 8) & 255}-${n & 255}-7.ec2.internal`;
    const dra = n % 2 === 0;
    nodeObjects.push({
      metadata: { name, labels: { 'node.kubernetes.io/instance-type': 'p5.48xlarge', 'topology.kubernetes.io/zone': 'us-east-1a' } },
      spec: { providerID: `aws:///us-east-1a/i-${n.toString(16).padStart(17, '0')}` },
      status: { capacity: dra ? { cpu: '192' } : { cpu: '192', 'nvidia.com/gpu': String(GPUS_PER_NODE) } },
    });
    if (dra)
      slices.push({
        metadata: { name: `${name}-gpu.nvidia.com` },
        spec: {
          driver: 'gpu.nvidia.com',
          nodeName: name,
          pool: { name, generation: 1, resourceSliceCount: 1 },
          devices: Array.from({ length: GPUS_PER_NODE }, (_, g) => ({
            name: `gpu-${g}`,
            attributes: { type: { string: 'gpu' }, uuid: { string: `GPU-${n}-${g}` }, productName: { string: 'NVIDIA H100 80GB HBM3' } },
          })),
        },
      });
  }
  const podObjects: unknown[] = [];
  const claims: unknown[] = [];
  const jobs: unknown[] = [];
  // Ten pods a node (by default): six hold a GPU each, four share the other two in pairs (a shared
  // claim on a DRA node, KAI's half fractions on a device-plugin node), so every GPU is held once.
  const perNode = Math.max(1, Math.ceil(pods / nodes));
  for (let p = 0; p < pods; p++) {
    const n = Math.floor(p / perNode) % nodes;
    const slot = p % perNode;
    const node = (nodeObjects[n] as { metadata: { name: string } }).metadata.name;
    const namespace = `team-${p % 40}`;
    const job = `job-${Math.floor(p / 2)}`;
    const dra = n % 2 === 0;
    const pairs = Math.max(0, perNode - GPUS_PER_NODE);
    const sharing = slot >= perNode - 2 * pairs;
    const gpu = sharing ? perNode - 2 * pairs + Math.floor((slot - (perNode - 2 * pairs)) / 2) : slot;
    const claim = sharing ? `${node}-gpu-${gpu}-shared` : `pod-${p}-gpu`;
    if (dra && (!sharing || (slot - (perNode - 2 * pairs)) % 2 === 0))
      claims.push({
        metadata: { name: claim, namespace },
        status: { allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: node, device: `gpu-${gpu}` }] } } },
      });
    if (p % 2 === 0) jobs.push({ metadata: { name: job, namespace } });
    const limits: Record<string, string> = dra || sharing ? { cpu: '4' } : { cpu: '4', 'nvidia.com/gpu': '1' };
    podObjects.push({
      metadata: {
        name: `pod-${p}`,
        namespace,
        ...(!dra && sharing ? { annotations: { 'gpu-fraction': '0.5' } } : {}),
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job, uid: `uid-${job}`, controller: true }],
      },
      spec: {
        nodeName: node,
        containers: [{ name: 'main', resources: { limits } }],
        ...(dra ? { resourceClaims: [{ name: 'gpu', resourceClaimName: claim }] } : {}),
      },
      status: { phase: 'Running', startTime: '2026-11-17T20:00:00Z' },
    });
  }
  const namespaces = Array.from({ length: 40 }, (_, i) => ({ metadata: { name: `team-${i}` } }));
  return {
    claims: claims.length,
    lists: {
      '/api/v1/nodes': nodeObjects,
      '/api/v1/namespaces': namespaces,
      '/api/v1/pods': podObjects,
      '/apis/apps/v1/replicasets': [],
      '/apis/apps/v1/statefulsets': [],
      '/apis/apps/v1/deployments': [],
      '/apis/batch/v1/jobs': jobs,
      '/apis/resource.k8s.io/v1/resourceslices': slices,
      '/apis/resource.k8s.io/v1/resourceclaims': claims,
      '/apis/resource.k8s.io/v1/deviceclasses': [],
    },
  };
}

/** Lists as the API server pages them (`limit`, an opaque `continue`); any other path is a kind not installed (404). */
async function serveLists(lists: Lists): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const items = lists[url.pathname];
    if (!items) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
      return;
    }
    const from = Number(url.searchParams.get('continue') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? items.length);
    const next = from + limit < items.length ? String(from + limit) : undefined;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: next ? { continue: next } : {}, items: items.slice(from, from + limit) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get requests() {
      return state.requests;
    },
    set requests(value: number) {
      state.requests = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
