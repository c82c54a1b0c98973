import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeWorkloadPort } from '../../src/providers/kubernetes/kube-workload-port.js';
import type { WorkloadKind } from '../../src/domain/kubernetes.js';
import { declaredKubeRules } from '../../src/permissions/declared-kube-rules.js';
import { ClusterInventoryReader } from '../../src/providers/kubernetes/cluster-inventory.js';
import { kubeConfigOf } from '../../src/providers/kubernetes/kube-config.js';
import { FakeKubeApi, type KubeRequest } from '../fakes/fake-kube-api.js';
import { sharedCluster } from '../fakes/kube-cluster.js';
import { kubeconfigFor, workload } from '../fakes/kube-objects.js';
import { workDir } from '../support/run-cli.js';

let api: FakeKubeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** The RBAC verb, API group and resource a request needs, read off its path as the API server authorises it. */
function needOf(request: KubeRequest): string {
  const parts = request.path.split('/').filter(Boolean);
  const group = parts[0] === 'api' ? '' : parts[1]!;
  let rest = parts.slice(parts[0] === 'api' ? 2 : 3);
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  const [resource, name, sub] = rest;
  const verb = request.method === 'PATCH' ? 'patch' : name ? 'get' : 'list';
  return `${verb} ${group || 'core'} ${resource}${sub ? `/${sub}` : ''}`;
}

describe('the Kubernetes RBAC rules burnrate declares', () => {
  it('cover every call the inventory and the actions make, and nothing more', async () => {
    api = await FakeKubeApi.start({ objects: [...sharedCluster(), workload('StatefulSet', 'vision', 'cache', { spec: { replicas: 1 } })] });
    const file = join(workDir(), 'kubeconfig');
    writeFileSync(file, kubeconfigFor(api.url, api.bearerToken));
    const config = kubeConfigOf({ name: 'gpu-prod', kubeconfig: file });
    await new ClusterInventoryReader('gpu-prod', config).read();
    const port = new KubeWorkloadPort(new Map([['gpu-prod', config]]), () => new Date());
    const targets: [WorkloadKind, string, string][] = [
      ['Deployment', 'vision', 'llm-serve'],
      ['StatefulSet', 'vision', 'cache'],
      ['Notebook', 'ml-research', 'dana-nb'],
      ['Job', 'ml-research', 'train-42'],
      ['RayJob', 'ml-research', 'sweep'],
      ['RayCluster', 'ml-research', 'sweep-raycluster-x2k'],
    ];
    for (const [kind, namespace, name] of targets) {
      const ref = { cluster: 'gpu-prod', kind, namespace, name };
      await port.stop(ref, { dryRun: false, by: 'U1' });
      await port.resume(ref, { dryRun: false, by: 'U1' });
      await port.keep(ref, new Date('2026-11-18T10:00:00Z'), 'U1');
    }
    api.put(workload('InferenceService', 'vision', 'ranker', { spec: { predictor: { minReplicas: 1 } } }));
    await port.stop({ cluster: 'gpu-prod', kind: 'InferenceService', namespace: 'vision', name: 'ranker' }, { dryRun: false, by: 'U1' });

    const used = new Set(api.requests.map(needOf));
    const declared = new Set(declaredKubeRules().flatMap((r) => r.verbs.map((v) => `${v} ${r.apiGroup || 'core'} ${r.resource}`)));
    expect([...used].filter((need) => !declared.has(need))).toEqual([]);
    expect([...declared].filter((need) => !used.has(need))).toEqual([]);
  });
});
