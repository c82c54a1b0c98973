import type { WorkloadKind, WorkloadRef } from '../../domain/kubernetes.js';

export interface OwnerReference {
  kind: string;
  name: string;
  controller?: boolean;
}

/** Any object's metadata, as far as owners go. */
export interface OwnedMetadata {
  namespace?: string;
  name?: string;
  labels?: Record<string, string>;
  ownerReferences?: OwnerReference[];
}

/** The intermediate owners listed once per read: ReplicaSets, StatefulSets, RayClusters, by "namespace/name". */
export interface OwnerIndex {
  replicaSets: ReadonlyMap<string, OwnedMetadata>;
  statefulSets: ReadonlyMap<string, OwnedMetadata>;
  rayClusters: ReadonlyMap<string, OwnedMetadata>;
}

const KSERVE_LABEL = 'serving.kserve.io/inferenceservice';

/**
 * The workload a pod belongs to: the root of its controller chain that burnrate can scale or
 * suspend. Pod → ReplicaSet → Deployment; Pod → StatefulSet → Notebook (Kubeflow); Pod → Job;
 * Pod → RayCluster → RayJob; any pod of a KServe InferenceService (its label) → the
 * InferenceService, whatever Knative or raw Deployment sits between. A pod whose controller is of
 * another kind (a DaemonSet) or that has none is its own workload, `Pod`, which is never acted on.
 */
export function workloadOf(cluster: string, pod: OwnedMetadata, owners: OwnerIndex): WorkloadRef {
  const namespace = pod.namespace ?? '';
  const ref = (kind: WorkloadKind, name: string): WorkloadRef => ({ cluster, kind, namespace, name });
  const isvc = pod.labels?.[KSERVE_LABEL];
  if (isvc) return ref('InferenceService', isvc);
  const controller = controllerOf(pod);
  if (!controller) return ref('Pod', pod.name ?? '');
  const key = `${namespace}/${controller.name}`;
  switch (controller.kind) {
    case 'ReplicaSet': {
      const deployment = controllerOf(owners.replicaSets.get(key));
      if (deployment?.kind === 'Deployment') return ref('Deployment', deployment.name);
      // Not listed (yet): a Deployment's ReplicaSet is its name and the pod-template-hash.
      const hash = pod.labels?.['pod-template-hash'];
      return hash && controller.name.endsWith(`-${hash}`)
        ? ref('Deployment', controller.name.slice(0, -hash.length - 1))
        : ref('Pod', pod.name ?? '');
    }
    case 'StatefulSet': {
      const notebook = controllerOf(owners.statefulSets.get(key));
      return notebook?.kind === 'Notebook' ? ref('Notebook', notebook.name) : ref('StatefulSet', controller.name);
    }
    case 'RayCluster': {
      const job = controllerOf(owners.rayClusters.get(key));
      return job?.kind === 'RayJob' ? ref('RayJob', job.name) : ref('RayCluster', controller.name);
    }
    case 'Job':
    case 'Notebook':
    case 'RayJob':
      return ref(controller.kind, controller.name);
    default:
      return ref('Pod', pod.name ?? '');
  }
}

function controllerOf(metadata: OwnedMetadata | undefined): OwnerReference | undefined {
  return metadata?.ownerReferences?.find((o) => o.controller);
}
