import { CUSTOM_WORKLOADS, type KubeRule } from '../../domain/kubernetes.js';

/** What ClusterInventoryReader lists, cluster-wide. */
export const KUBE_READ_RULES: readonly KubeRule[] = [
  { apiGroup: '', resource: 'nodes', verbs: ['list'], usedBy: 'GPU nodes (capacity, type, pool, cloud id)', role: 'read' },
  { apiGroup: '', resource: 'namespaces', verbs: ['list'], usedBy: 'namespace teams and protection', role: 'read' },
  { apiGroup: '', resource: 'pods', verbs: ['list'], usedBy: 'pods holding GPUs', role: 'read' },
  { apiGroup: 'apps', resource: 'replicasets', verbs: ['list'], usedBy: 'owner chain (Deployment)', role: 'read' },
  { apiGroup: 'apps', resource: 'statefulsets', verbs: ['list'], usedBy: 'owner chain (Notebook), workload annotations', role: 'read' },
  { apiGroup: 'apps', resource: 'deployments', verbs: ['list'], usedBy: 'workload annotations', role: 'read' },
  { apiGroup: 'batch', resource: 'jobs', verbs: ['list'], usedBy: 'workload annotations', role: 'read' },
  { apiGroup: 'resource.k8s.io', resource: 'resourceclaims', verbs: ['list'], usedBy: 'GPUs pods hold through claims (DRA)', role: 'read' },
  { apiGroup: 'resource.k8s.io', resource: 'resourceslices', verbs: ['list'], usedBy: "nodes' GPUs and MIG devices (DRA)", role: 'read' },
  { apiGroup: 'resource.k8s.io', resource: 'deviceclasses', verbs: ['list'], usedBy: 'which drivers offer GPUs (DRA)', role: 'read' },
  ...CUSTOM_WORKLOADS.map(
    (k): KubeRule => ({ apiGroup: k.group, resource: k.plural, verbs: ['list'], usedBy: `${k.kind} workloads`, role: 'read' }),
  ),
];

/** The verbs the actions need (with actions enabled), for the generated ClusterRole. */
export const KUBE_ACTION_RULES: readonly KubeRule[] = [
  { apiGroup: '', resource: 'namespaces', verbs: ['get'], usedBy: 'protection (namespace annotation)', role: 'act' },
  { apiGroup: 'apps', resource: 'deployments', verbs: ['get', 'patch'], usedBy: 'Stop, Resume, Keep (annotations)', role: 'act' },
  { apiGroup: 'apps', resource: 'deployments/scale', verbs: ['get', 'patch'], usedBy: 'Stop, Resume (replicas)', role: 'act' },
  { apiGroup: 'apps', resource: 'statefulsets', verbs: ['get', 'patch'], usedBy: 'Stop, Resume, Keep (annotations)', role: 'act' },
  { apiGroup: 'apps', resource: 'statefulsets/scale', verbs: ['get', 'patch'], usedBy: 'Stop, Resume (replicas)', role: 'act' },
  { apiGroup: 'batch', resource: 'jobs', verbs: ['get', 'patch'], usedBy: 'Stop, Resume (suspend), Keep', role: 'act' },
  ...CUSTOM_WORKLOADS.map(
    (k): KubeRule => ({
      apiGroup: k.group,
      resource: k.plural,
      verbs: ['get', 'patch'],
      usedBy: `Stop, Resume, Keep of ${k.kind} workloads`,
      role: 'act',
    }),
  ),
];
