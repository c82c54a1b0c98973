import type { KubeObject } from './fake-kube-api.js';

// Builders of the Kubernetes objects the fake API server holds, shaped as the API returns them.

type Owner = { kind: string; name: string; apiVersion?: string };

const API_VERSIONS: Record<string, string> = {
  ReplicaSet: 'apps/v1',
  StatefulSet: 'apps/v1',
  Deployment: 'apps/v1',
  Job: 'batch/v1',
  Notebook: 'kubeflow.org/v1',
  RayCluster: 'ray.io/v1',
  RayJob: 'ray.io/v1',
  InferenceService: 'serving.kserve.io/v1beta1',
};

function ownedBy(owner: Owner | undefined) {
  return owner
    ? [
        {
          apiVersion: owner.apiVersion ?? API_VERSIONS[owner.kind]!,
          kind: owner.kind,
          name: owner.name,
          uid: `uid-${owner.name}`,
          controller: true,
        },
      ]
    : undefined;
}

export function node(
  name: string,
  options: { gpus?: number; mig?: Record<string, number>; labels?: Record<string, string>; providerID?: string },
): KubeObject {
  const capacity: Record<string, string> = { cpu: '48', memory: '196Gi' };
  if (options.gpus) capacity['nvidia.com/gpu'] = String(options.gpus);
  for (const [resource, count] of Object.entries(options.mig ?? {})) capacity[resource] = String(count);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...options.labels }, creationTimestamp: '2026-11-01T00:00:00Z' },
    spec: options.providerID ? { providerID: options.providerID } : {},
    status: { capacity, allocatable: capacity },
  };
}

export function namespace(name: string, labels: Record<string, string> = {}, annotations: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels, annotations } };
}

export function pod(
  ns: string,
  name: string,
  options: {
    node?: string;
    gpus?: number;
    mig?: Record<string, number>;
    owner?: Owner;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    phase?: string;
    /** ResourceClaims by name; `template: true` for one generated from a ResourceClaimTemplate (named in the pod's status). */
    claims?: { name: string; claim: string; template?: boolean }[];
  },
): KubeObject {
  const limits: Record<string, string> = { cpu: '4' };
  if (options.gpus) limits['nvidia.com/gpu'] = String(options.gpus);
  for (const [resource, count] of Object.entries(options.mig ?? {})) limits[resource] = String(count);
  const claims = options.claims ?? [];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      labels: options.labels ?? {},
      ...(options.annotations ? { annotations: options.annotations } : {}),
      ownerReferences: ownedBy(options.owner),
    },
    spec: {
      nodeName: options.node,
      containers: [
        {
          name: 'main',
          image: 'train:1',
          resources: { limits, ...(claims.length ? { claims: claims.map((c) => ({ name: c.name })) } : {}) },
        },
      ],
      ...(claims.length
        ? {
            resourceClaims: claims.map((c) =>
              c.template ? { name: c.name, resourceClaimTemplateName: `${c.name}-template` } : { name: c.name, resourceClaimName: c.claim },
            ),
          }
        : {}),
    },
    status: {
      phase: options.phase ?? 'Running',
      startTime: '2026-11-17T20:00:00Z',
      ...(claims.some((c) => c.template)
        ? { resourceClaimStatuses: claims.filter((c) => c.template).map((c) => ({ name: c.name, resourceClaimName: c.claim })) }
        : {}),
    },
  };
}

/** A device a DRA driver publishes: a whole GPU (`type: gpu`) or a MIG device cut from one (`type: mig`, its profile and parent). */
export interface DraDevice {
  name: string;
  uuid: string;
  product: string;
  mig?: { profile: string; parentUUID: string };
}

/** The ResourceSlice a DRA driver (NVIDIA's `gpu.nvidia.com` by default) publishes for one node's pool. */
export function resourceSlice(nodeName: string, devices: readonly DraDevice[], driver = 'gpu.nvidia.com'): KubeObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: `${nodeName}-${driver}-x8k2q` },
    spec: {
      driver,
      nodeName,
      pool: { name: nodeName, generation: 1, resourceSliceCount: 1 },
      devices: devices.map((d) => ({
        name: d.name,
        attributes: {
          type: { string: d.mig ? 'mig' : 'gpu' },
          uuid: { string: d.uuid },
          productName: { string: d.product },
          ...(d.mig ? { profile: { string: d.mig.profile }, parentUUID: { string: d.mig.parentUUID } } : {}),
        },
      })),
    },
  };
}

/** A ResourceClaim as the scheduler leaves it once allocated: its devices on the node's pool, and the pods reserving it. */
export function resourceClaim(
  ns: string,
  name: string,
  allocated: { node: string; devices: readonly string[]; driver?: string; deviceClass?: string },
  reservedFor: readonly string[],
): KubeObject {
  const driver = allocated.driver ?? 'gpu.nvidia.com';
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace: ns },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: allocated.deviceClass ?? 'gpu.nvidia.com' } }] } },
    status: {
      allocation: {
        devices: { results: allocated.devices.map((device) => ({ request: 'gpu', driver, pool: allocated.node, device })) },
        nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [allocated.node] }] }] },
      },
      reservedFor: reservedFor.map((pod) => ({ resource: 'pods', name: pod, uid: `uid-Pod-${ns}-${pod}` })),
    },
  };
}

/** A DeviceClass selecting one driver's devices by CEL, as the drivers' Helm charts install them. */
export function deviceClass(name: string, driver: string): KubeObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name },
    spec: { selectors: [{ cel: { expression: `device.driver == '${driver}'` } }] },
  };
}

/** A workload object (Deployment, StatefulSet, Job, ReplicaSet or a custom kind) with its spec. */
export function workload(
  kind: string,
  ns: string,
  name: string,
  options: { owner?: Owner; annotations?: Record<string, string>; spec?: object; labels?: Record<string, string> } = {},
): KubeObject {
  return {
    apiVersion: API_VERSIONS[kind]!,
    kind,
    metadata: { name, namespace: ns, annotations: options.annotations, labels: options.labels, ownerReferences: ownedBy(options.owner) },
    spec: options.spec ?? {},
    status: {},
  };
}

/** A kubeconfig for the fake: its URL and token, one context. */
export function kubeconfigFor(url: string, token: string, context = 'test'): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    // Plain HTTP on 127.0.0.1: the client refuses http:// unless TLS verification is off.
    clusters: [{ name: 'fake', cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'burnrate', user: { token } }],
    contexts: [{ name: context, context: { cluster: 'fake', user: 'burnrate' } }],
    'current-context': context,
  });
}
