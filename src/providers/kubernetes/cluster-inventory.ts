import { AppsV1Api, BatchV1Api, CoreV1Api, CustomObjectsApi, ResourceV1Api, type KubeConfig } from '@kubernetes/client-node';
import {
  CUSTOM_WORKLOADS,
  migShare,
  workloadKey,
  type ClusterInventory,
  type GpuPod,
  type NamespaceInfo,
} from '../../domain/kubernetes.js';
import { claimGpusByPod, DraGpus, type DeviceClassObject, type ResourceClaimObject, type ResourceSliceObject } from './dra-devices.js';
import {
  hamiDevices,
  hamiShare,
  KAI_RESERVATION_NAMESPACE,
  type HamiDevice,
  kaiFraction,
  replicasOf,
  SHARED_GPU_RESOURCE,
} from './gpu-sharing.js';
import { explainKubeError } from './kube-errors.js';
import { kubeflowCullingOf } from './notebook-platforms.js';
import { gpuNodeOf, singleStrategyProfile } from './node-facts.js';
import { workloadOf, type OwnedMetadata } from './workload-owner.js';

/** Items per list call by default: the API server hands out `continue` tokens beyond it. */
const PAGE_SIZE = 500;

interface Page<T> {
  items: T[];
  metadata?: { _continue?: string; continue?: string };
}

interface AnyObject {
  metadata?: OwnedMetadata & { annotations?: Record<string, string> };
}

/**
 * Reads one cluster: its GPU nodes, the running pods holding GPUs with the workload each belongs
 * to, the namespaces, and the annotations of the workloads. Every list is paged. A custom kind
 * whose CRD is not installed (no Kubeflow, no KServe, no KubeRay) lists as empty, and so do the
 * ResourceClaims, ResourceSlices and DeviceClasses of a cluster without `resource.k8s.io/v1`
 * (before Kubernetes 1.34). A pod holds the GPUs it requests (`nvidia.com/gpu`, MIG slices), those
 * of its ResourceClaims (dra-devices.ts) and its fraction of a shared GPU (gpu-sharing.ts); the
 * KAI scheduler's reservation pods hold none of their own.
 */
export class ClusterInventoryReader {
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly batch: BatchV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly resource: ResourceV1Api;

  constructor(
    readonly cluster: string,
    config: KubeConfig,
    private readonly pageSize = PAGE_SIZE,
  ) {
    this.core = config.makeApiClient(CoreV1Api);
    this.apps = config.makeApiClient(AppsV1Api);
    this.batch = config.makeApiClient(BatchV1Api);
    this.custom = config.makeApiClient(CustomObjectsApi);
    this.resource = config.makeApiClient(ResourceV1Api);
  }

  async read(): Promise<ClusterInventory> {
    const list = <T>(what: string, call: (cont: string | undefined) => Promise<Page<T>>) => this.listAll(what, call);
    const page = { limit: this.pageSize };
    const [nodes, namespaces, pods, replicaSets, statefulSets, deployments, jobs, slices, claims, classes, ...custom] = await Promise.all([
      list('list nodes', (c) => this.core.listNode({ ...page, _continue: c })),
      list('list namespaces', (c) => this.core.listNamespace({ ...page, _continue: c })),
      list('list pods', (c) => this.core.listPodForAllNamespaces({ ...page, _continue: c })),
      list('list replicasets', (c) => this.apps.listReplicaSetForAllNamespaces({ ...page, _continue: c })),
      list('list statefulsets', (c) => this.apps.listStatefulSetForAllNamespaces({ ...page, _continue: c })),
      list('list deployments', (c) => this.apps.listDeploymentForAllNamespaces({ ...page, _continue: c })),
      list('list jobs', (c) => this.batch.listJobForAllNamespaces({ ...page, _continue: c })),
      this.optional(list('list resourceslices.resource.k8s.io', (c) => this.resource.listResourceSlice({ ...page, _continue: c }))),
      this.optional(
        list('list resourceclaims.resource.k8s.io', (c) => this.resource.listResourceClaimForAllNamespaces({ ...page, _continue: c })),
      ),
      this.optional(list('list deviceclasses.resource.k8s.io', (c) => this.resource.listDeviceClass({ ...page, _continue: c }))),
      ...CUSTOM_WORKLOADS.map((kind) => this.listCustom(kind)),
    ]);
    const byKey = (objects: AnyObject[]) => new Map(objects.map((o) => [`${o.metadata?.namespace}/${o.metadata?.name}`, o.metadata ?? {}]));
    const customOf = (kind: string) => custom[CUSTOM_WORKLOADS.findIndex((k) => k.kind === kind)]!;
    const owners = { replicaSets: byKey(replicaSets), statefulSets: byKey(statefulSets), rayClusters: byKey(customOf('RayCluster')) };

    const draGpus = new DraGpus(slices as ResourceSliceObject[], claims as ResourceClaimObject[], classes as DeviceClassObject[]);
    const nodeLabels = new Map(nodes.map((n) => [n.metadata?.name ?? '', n.metadata?.labels ?? {}]));
    // HAMi's nodes and the physical GPUs each registered: their pods hold their memory's or cores' share.
    const hamiNodes = new Map<string, HamiDevice[]>();
    for (const n of nodes) {
      const devices = hamiDevices(n.metadata?.annotations);
      if (devices) hamiNodes.set(n.metadata?.name ?? '', devices);
    }
    const running = pods.filter((p) => p.status?.phase === 'Running' && p.metadata?.namespace !== KAI_RESERVATION_NAMESPACE);
    const byPod = claimGpusByPod(running, draGpus);
    const gpuPods: GpuPod[] = [];
    for (const pod of running) {
      const labels = nodeLabels.get(pod.spec?.nodeName ?? '');
      const viaClaims = byPod.get(pod);
      const fraction = kaiFraction(pod.metadata?.annotations ?? {}, labels);
      const hami = hamiNodes.get(pod.spec?.nodeName ?? '');
      const containers = pod.spec?.containers ?? [];
      const held = hami
        ? hamiShare(pod.metadata?.annotations ?? {}, containers.map(resourcesOf), hami)
        : gpusHeld(containers, gpuUnitOf(labels)) + fraction;
      const gpus = held + (viaClaims?.gpus ?? 0);
      if (gpus === 0) continue;
      const metadata = pod.metadata ?? {};
      gpuPods.push({
        cluster: this.cluster,
        namespace: metadata.namespace ?? '',
        name: metadata.name ?? '',
        node: pod.spec?.nodeName ?? null,
        gpus,
        ...(viaClaims ? { claims: viaClaims.claims } : {}),
        ...(fraction > 0 && !hami ? { kaiFraction: true } : {}),
        workload: workloadOf(this.cluster, metadata as OwnedMetadata, owners),
        labels: metadata.labels ?? {},
        annotations: metadata.annotations ?? {},
        startedAt: pod.status?.startTime ? new Date(pod.status.startTime) : null,
      });
    }

    const kubeflowCulling = kubeflowCullingOf(deployments);
    const workloadAnnotations = new Map<string, Record<string, string>>();
    const annotate = (kind: string, objects: AnyObject[]) => {
      for (const { metadata } of objects)
        if (metadata?.annotations)
          workloadAnnotations.set(
            workloadKey({ cluster: this.cluster, kind: kind as never, namespace: metadata.namespace ?? '', name: metadata.name ?? '' }),
            metadata.annotations,
          );
    };
    annotate('Deployment', deployments);
    annotate('StatefulSet', statefulSets);
    annotate('Job', jobs);
    CUSTOM_WORKLOADS.forEach((kind, i) => annotate(kind.kind, custom[i]!));

    return {
      cluster: this.cluster,
      nodes: nodes.flatMap((n) => gpuNodeOf(this.cluster, n, draGpus.physicalGpusOn(n.metadata?.name ?? '')) ?? []),
      pods: gpuPods,
      namespaces: namespaces.map(
        (n): NamespaceInfo => ({
          name: n.metadata?.name ?? '',
          labels: n.metadata?.labels ?? {},
          annotations: n.metadata?.annotations ?? {},
        }),
      ),
      workloadAnnotations,
      ...(kubeflowCulling ? { kubeflowCulling } : {}),
    };
  }

  private async listAll<T>(what: string, call: (cont: string | undefined) => Promise<Page<T>>): Promise<T[]> {
    const items: T[] = [];
    let cont: string | undefined;
    do {
      const page = await call(cont).catch((error: unknown) => {
        throw explainKubeError(error, what, this.cluster);
      });
      items.push(...page.items);
      cont = page.metadata?._continue || page.metadata?.continue || undefined;
    } while (cont);
    return items;
  }

  /** A list of an API the cluster may not serve (`resource.k8s.io/v1` before Kubernetes 1.34): empty there. */
  private async optional<T>(listed: Promise<T[]>): Promise<T[]> {
    try {
      return await listed;
    } catch (error) {
      if ((error as { code?: string }).code === 'burnrate_kube_not_found') return [];
      throw error;
    }
  }

  private async listCustom({ group, version, plural }: (typeof CUSTOM_WORKLOADS)[number]): Promise<AnyObject[]> {
    try {
      return await this.listAll(
        `list ${plural}.${group}`,
        (c) =>
          this.custom.listClusterCustomObject({ group, version, plural, limit: this.pageSize, _continue: c }) as Promise<Page<AnyObject>>,
      );
    } catch (error) {
      // No such CRD in this cluster: nothing of that kind runs here.
      if ((error as { code?: string }).code === 'burnrate_kube_not_found') return [];
      throw error;
    }
  }
}

interface Container {
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
}

/**
 * What one `nvidia.com/gpu` is on a node: a slice's share under the single MIG strategy, 1/replicas
 * of a time-sliced GPU, else 1.
 */
function gpuUnitOf(labels: Readonly<Record<string, string>> | undefined): number {
  const profile = singleStrategyProfile(labels);
  return profile ? migShare(`nvidia.com/mig-${profile}`)! : 1 / replicasOf(labels);
}

/**
 * Whole GPUs plus MIG slices at their share; extended resources are set in limits (requests, if
 * given, equal them). `gpuUnit`: what one `nvidia.com/gpu` is on the pod's node (gpuUnitOf).
 */
function gpusHeld(containers: readonly Container[], gpuUnit: number): number {
  let total = 0;
  for (const container of containers) {
    for (const [resource, quantity] of Object.entries(resourcesOf(container))) {
      const count = Number(quantity);
      if (!(count > 0)) continue;
      if (resource === 'nvidia.com/gpu' || resource === SHARED_GPU_RESOURCE) total += count * gpuUnit;
      else total += (migShare(resource) ?? 0) * count;
    }
  }
  return total;
}

/** A container's extended resources: limits over requests. */
function resourcesOf(container: Container): Record<string, string> {
  return { ...container.resources?.requests, ...container.resources?.limits };
}
