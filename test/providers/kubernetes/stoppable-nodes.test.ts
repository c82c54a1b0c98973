import { describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import type { ClusterInventory, GpuNode, GpuPod, WorkloadKind } from '../../../src/domain/kubernetes.js';
import { teamResolver } from '../../../src/domain/ownership.js';
import { stoppableNodes, type WorkloadContext } from '../../../src/providers/kubernetes/workload-instances.js';

const context: WorkloadContext = {
  catalog: loadPriceCatalog(),
  resolveTeam: teamResolver([{ id: 'vision', match: [] } as never, { id: 'research', match: [] } as never]),
  namespaceTeams: new Map([['vision', 'vision']]),
  teamLabel: 'team',
  ownerKey: 'owner',
};

const node = (name: string, instanceId: string | null = `i-${name}`): GpuNode => ({
  cluster: 'c',
  name,
  instanceType: 'g5.xlarge',
  capacityType: 'on-demand',
  nodePool: null,
  instanceId,
  provider: 'aws',
  zone: 'us-east-1a',
  gpus: 1,
  migSlices: {},
  labels: {},
  createdAt: null,
});

const pod = (
  namespace: string,
  name: string,
  on: string,
  kind: WorkloadKind = 'Pod',
  annotations: Record<string, string> = {},
): GpuPod => ({
  cluster: 'c',
  namespace,
  name,
  node: on,
  gpus: 1,
  workload: { cluster: 'c', kind, namespace, name },
  labels: {},
  annotations,
  startedAt: null,
});

function inventory(nodes: GpuNode[], pods: GpuPod[]): ClusterInventory {
  return {
    cluster: 'c',
    nodes,
    pods,
    namespaces: [
      { name: 'vision', labels: {}, annotations: {} },
      { name: 'research', labels: { team: 'research' }, annotations: {} },
      { name: 'frozen', labels: { team: 'vision' }, annotations: { 'burnrate.io/protect': 'true' } },
      { name: 'nobody', labels: {}, annotations: {} },
    ],
    workloadAnnotations: new Map(),
  };
}

describe('nodes one team may stop whole', () => {
  it("are those whose GPU pods are all one team's bare pods, none protected, with a cloud instance id", () => {
    const found = stoppableNodes(
      inventory(
        [
          node('bare'),
          node('two-bare'),
          node('controlled'),
          node('mixed-teams'),
          node('protected'),
          node('untagged'),
          node('empty'),
          node('no-id', null),
        ],
        [
          pod('vision', 'debug', 'bare'),
          pod('vision', 'a', 'two-bare'),
          pod('vision', 'b', 'two-bare'),
          pod('vision', 'debug2', 'controlled'),
          pod('vision', 'web-1', 'controlled', 'Deployment'),
          pod('vision', 'x', 'mixed-teams'),
          pod('research', 'y', 'mixed-teams'),
          pod('vision', 'z', 'protected', 'Pod', { 'burnrate.io/protect': 'true' }),
          pod('frozen', 'f', 'protected'),
          pod('nobody', 'n', 'untagged'),
          pod('vision', 'w', 'no-id'),
        ],
      ),
      context,
    );
    expect([...found]).toEqual([
      ['i-bare', { node: 'bare', team: 'vision' }],
      ['i-two-bare', { node: 'two-bare', team: 'vision' }],
    ]);
  });
});
