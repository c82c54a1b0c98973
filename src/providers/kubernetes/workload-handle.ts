import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from '@kubernetes/client-node';
import { CUSTOM_WORKLOADS, type WorkloadRef } from '../../domain/kubernetes.js';

/** A workload object as read: what the actions look at. */
export interface WorkloadObject {
  annotations: Record<string, string>;
  spec: any;
  resourceVersion: string | undefined;
}

/** How one kind is read and changed; `scale` only for kinds with the /scale subresource. */
export interface WorkloadHandle {
  read(): Promise<WorkloadObject>;
  /** An RFC 7386 merge patch of the object; `dryRun`: the API server checks it and stores nothing. */
  patch(body: object, dryRun: boolean): Promise<void>;
  scale?: { read(): Promise<number>; patch(replicas: number, dryRun: boolean): Promise<void> };
  namespaceAnnotations(): Promise<Record<string, string>>;
}

const MERGE = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const dry = (dryRun: boolean) => (dryRun ? { dryRun: 'All' } : {});
const objectOf = (o: {
  metadata?: { annotations?: Record<string, string>; resourceVersion?: string };
  spec?: unknown;
}): WorkloadObject => ({
  annotations: o.metadata?.annotations ?? {},
  spec: o.spec ?? {},
  resourceVersion: o.metadata?.resourceVersion,
});

/** The typed client calls for the workload's kind; null for a bare Pod, which is never changed. */
export function handleOf(config: KubeConfig, ref: WorkloadRef): WorkloadHandle | null {
  const { name, namespace } = ref;
  const core = config.makeApiClient(CoreV1Api);
  const namespaceAnnotations = async () => (await core.readNamespace({ name: namespace })).metadata?.annotations ?? {};
  const apps = () => config.makeApiClient(AppsV1Api);
  switch (ref.kind) {
    case 'Deployment': {
      const api = apps();
      return {
        namespaceAnnotations,
        read: async () => objectOf(await api.readNamespacedDeployment({ name, namespace })),
        patch: async (body, dryRun) => void (await api.patchNamespacedDeployment({ name, namespace, body, ...dry(dryRun) }, MERGE)),
        scale: {
          read: async () => (await api.readNamespacedDeploymentScale({ name, namespace })).spec?.replicas ?? 0,
          patch: async (replicas, dryRun) =>
            void (await api.patchNamespacedDeploymentScale({ name, namespace, body: { spec: { replicas } }, ...dry(dryRun) }, MERGE)),
        },
      };
    }
    case 'StatefulSet': {
      const api = apps();
      return {
        namespaceAnnotations,
        read: async () => objectOf(await api.readNamespacedStatefulSet({ name, namespace })),
        patch: async (body, dryRun) => void (await api.patchNamespacedStatefulSet({ name, namespace, body, ...dry(dryRun) }, MERGE)),
        scale: {
          read: async () => (await api.readNamespacedStatefulSetScale({ name, namespace })).spec?.replicas ?? 0,
          patch: async (replicas, dryRun) =>
            void (await api.patchNamespacedStatefulSetScale({ name, namespace, body: { spec: { replicas } }, ...dry(dryRun) }, MERGE)),
        },
      };
    }
    case 'Job': {
      const api = config.makeApiClient(BatchV1Api);
      return {
        namespaceAnnotations,
        read: async () => objectOf(await api.readNamespacedJob({ name, namespace })),
        patch: async (body, dryRun) => void (await api.patchNamespacedJob({ name, namespace, body, ...dry(dryRun) }, MERGE)),
      };
    }
    case 'Notebook':
    case 'InferenceService':
    case 'RayCluster':
    case 'RayJob': {
      const api = config.makeApiClient(CustomObjectsApi);
      const { group, version, plural } = CUSTOM_WORKLOADS.find((k) => k.kind === ref.kind)!;
      const where = { group, version, plural, namespace, name };
      return {
        namespaceAnnotations,
        read: async () => objectOf(await api.getNamespacedCustomObject(where)),
        patch: async (body, dryRun) => void (await api.patchNamespacedCustomObject({ ...where, body, ...dry(dryRun) }, MERGE)),
      };
    }
    case 'Pod':
      return null;
  }
}
