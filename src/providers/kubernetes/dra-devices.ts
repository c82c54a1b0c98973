import { migProfileShare, slicesPerGpu } from '../../domain/physical-gpus.js';

// Dynamic Resource Allocation (resource.k8s.io/v1, GA in Kubernetes 1.34): a pod gets its GPUs
// through ResourceClaims, not `nvidia.com/gpu`; the drivers publish each node's devices in
// ResourceSlices. Only the fields read here.

type Attribute = { string?: string; int?: number; bool?: boolean; version?: string };

export interface ResourceSliceObject {
  spec?: {
    driver?: string;
    nodeName?: string;
    pool?: { name?: string };
    devices?: { name?: string; attributes?: Record<string, Attribute> }[];
  };
}

export interface ResourceClaimObject {
  metadata?: { name?: string; namespace?: string };
  spec?: { devices?: { requests?: { name?: string; exactly?: { deviceClassName?: string } }[] } };
  status?: { allocation?: { devices?: { results?: { request?: string; driver?: string; pool?: string; device?: string }[] } } };
}

export interface DeviceClassObject {
  metadata?: { name?: string };
  spec?: { selectors?: { cel?: { expression?: string } }[] };
}

export interface PodClaimRefs {
  metadata?: { namespace?: string };
  spec?: { resourceClaims?: { name?: string; resourceClaimName?: string }[] };
  status?: { resourceClaimStatuses?: { name?: string; resourceClaimName?: string }[] };
}

/** NVIDIA's, AMD's and Intel's GPU drivers name themselves `gpu.<vendor>`; NVIDIA's compute-domain driver holds no GPU. */
const isGpuDriverName = (driver: string) => driver.startsWith('gpu.');

/** One device a driver offers: the share of its physical GPU it is. */
interface GpuDevice {
  share: number;
}

/**
 * The GPUs of a cluster's ResourceSlices and claims:
 *   - each node's physical GPUs (a whole GPU and the MIG devices cut from it are one GPU: NVIDIA's
 *     driver publishes both, `type` gpu or mig, a MIG device under its `parentUUID`);
 *   - each claim's allocated GPU devices as a share of whole GPUs (a MIG device at its profile's
 *     share, `1g.10gb` of an H100 is 1/7).
 * A driver is a GPU driver by its name (`gpu.nvidia.com`) or because a DeviceClass named for GPUs
 * selects it (`device.driver == "..."` in its CEL selector).
 */
export class DraGpus {
  private readonly devices = new Map<string, GpuDevice>();
  private readonly claims = new Map<string, number>();
  private readonly physicalByNode = new Map<string, Set<string>>();

  constructor(slices: readonly ResourceSliceObject[], claims: readonly ResourceClaimObject[], classes: readonly DeviceClassObject[]) {
    const drivers = gpuDriversOf(classes);
    for (const { spec } of slices) {
      const driver = spec?.driver ?? '';
      if (!drivers(driver)) continue;
      for (const device of spec?.devices ?? []) {
        const attributes = device.attributes ?? {};
        const text = (name: string) => attributes[name]?.string;
        const mig = text('type') === 'mig' || text('profile') !== undefined;
        const share = mig ? (migProfileShare(text('profile') ?? '', slicesPerGpu(text('productName'))) ?? 1 / 7) : 1;
        const physical = text('parentUUID') ?? text('uuid') ?? `${spec?.nodeName}/${device.name}`;
        this.devices.set(deviceKey(driver, spec?.pool?.name, device.name), { share });
        if (spec?.nodeName) {
          const onNode = this.physicalByNode.get(spec.nodeName) ?? new Set<string>();
          this.physicalByNode.set(spec.nodeName, onNode.add(physical));
        }
      }
    }
    for (const claim of claims) {
      let gpus = 0;
      for (const result of claim.status?.allocation?.devices?.results ?? []) {
        if (!drivers(result.driver ?? '')) continue;
        // A device no slice lists (its driver's slice was replaced since): a whole GPU, as the driver says it is one.
        gpus += this.devices.get(deviceKey(result.driver, result.pool, result.device))?.share ?? 1;
      }
      if (gpus > 0) this.claims.set(`${claim.metadata?.namespace}/${claim.metadata?.name}`, gpus);
    }
  }

  /** Physical GPUs the node's slices offer: 0 where the node has no DRA GPU driver. */
  physicalGpusOn(node: string): number {
    return this.physicalByNode.get(node)?.size ?? 0;
  }

  /** Whole GPUs allocated to the claim ("namespace/name"); 0 for a claim holding none. */
  gpusOf(claim: string): number {
    return this.claims.get(claim) ?? 0;
  }
}

/**
 * "namespace/claim" of each ResourceClaim the pod uses: named in its spec, or generated from a
 * template and named in its status.
 */
export function claimsOf(pod: PodClaimRefs): string[] {
  const generated = new Map((pod.status?.resourceClaimStatuses ?? []).map((s) => [s.name, s.resourceClaimName]));
  return (pod.spec?.resourceClaims ?? []).flatMap((ref) => {
    const name = ref.resourceClaimName ?? generated.get(ref.name);
    return name ? [`${pod.metadata?.namespace}/${name}`] : [];
  });
}

/**
 * Each pod's GPUs through its claims: a claim's GPUs split evenly over the running pods using it,
 * so a shared claim's GPU is counted once over them all.
 */
export function claimGpusByPod<P extends PodClaimRefs>(pods: readonly P[], dra: DraGpus): Map<P, { gpus: number; claims: string[] }> {
  const users = new Map<string, number>();
  const claimed = pods.map((pod) => ({ pod, claims: claimsOf(pod).filter((c) => dra.gpusOf(c) > 0) }));
  for (const { claims } of claimed) for (const claim of claims) users.set(claim, (users.get(claim) ?? 0) + 1);
  const out = new Map<P, { gpus: number; claims: string[] }>();
  for (const { pod, claims } of claimed) {
    if (claims.length === 0) continue;
    out.set(pod, { gpus: claims.reduce((sum, c) => sum + dra.gpusOf(c) / users.get(c)!, 0), claims });
  }
  return out;
}

function gpuDriversOf(classes: readonly DeviceClassObject[]): (driver: string) => boolean {
  const named = new Set<string>();
  for (const deviceClass of classes) {
    if (!/gpu|mig/i.test(deviceClass.metadata?.name ?? '')) continue;
    for (const selector of deviceClass.spec?.selectors ?? [])
      for (const match of (selector.cel?.expression ?? '').matchAll(/device\.driver\s*==\s*['"]([^'"]+)['"]/g)) named.add(match[1]!);
  }
  return (driver) => isGpuDriverName(driver) || named.has(driver);
}

const deviceKey = (driver: string | undefined, pool: string | undefined, device: string | undefined) =>
  `${driver}\u0000${pool}\u0000${device}`;
