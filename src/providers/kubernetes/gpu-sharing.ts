// GPUs shared by fractions: the share of a GPU a pod is charged for when several pods run on one.

export { KAI_RESERVATION_NAMESPACE } from '../../domain/kubernetes.js';

/** KAI's pod annotations: a fraction of one GPU (`0.5`), on this many GPUs, or GPU memory in MiB. */
const KAI = { fraction: 'gpu-fraction', devices: 'gpu-fraction-num-devices', memory: 'gpu-memory' } as const;

/** What the GPU operator's feature discovery says of a node's GPUs. */
const GFD = { replicas: 'nvidia.com/gpu.replicas', memory: 'nvidia.com/gpu.memory' } as const;

/**
 * The GPUs a KAI fractional pod holds: `gpu-fraction` × `gpu-fraction-num-devices`, or
 * `gpu-memory` over the node's GPU memory (`nvidia.com/gpu.memory`, MiB, from GPU feature
 * discovery; without it the memory share cannot be priced and counts 0). 0 for any other pod; a
 * value that is no number in (0, 1] (fraction) or above 0 (memory) is not a fraction.
 */
export function kaiFraction(
  annotations: Readonly<Record<string, string>>,
  nodeLabels: Readonly<Record<string, string>> | undefined,
): number {
  const fraction = Number(annotations[KAI.fraction]);
  if (fraction > 0 && fraction <= 1) {
    const devices = Number(annotations[KAI.devices] ?? 1);
    return fraction * (Number.isInteger(devices) && devices >= 1 ? devices : 1);
  }
  const memory = Number(annotations[KAI.memory]);
  const perGpu = Number(nodeLabels?.[GFD.memory]);
  if (memory > 0 && perGpu > 0) return Math.min(1, memory / perGpu);
  return 0;
}

/**
 * Time-slicing (and MPS) replicas: the device plugin offers each GPU `nvidia.com/gpu.replicas`
 * times, so one `nvidia.com/gpu` (or `nvidia.com/gpu.shared`, when renamed) is 1/replicas of a GPU.
 * 1 on a node that shares nothing.
 */
export function replicasOf(nodeLabels: Readonly<Record<string, string>> | undefined): number {
  const replicas = Number(nodeLabels?.[GFD.replicas]);
  return Number.isInteger(replicas) && replicas > 1 ? replicas : 1;
}

/** The resource a renamed time-sliced GPU is offered as. */
export const SHARED_GPU_RESOURCE = 'nvidia.com/gpu.shared';

/**
 * HAMi (CNCF sandbox) shares a GPU by memory and cores: its device plugin offers each GPU
 * `deviceSplitCount` times as `nvidia.com/gpu` (10 by default) and registers the node's physical
 * GPUs in an annotation; a pod asks for vGPUs with `nvidia.com/gpumem` (MiB) or
 * `nvidia.com/gpumem-percentage` and `nvidia.com/gpucores` (percent of a GPU's cores), and the
 * scheduler writes what it allocated on the pod.
 */
const HAMI = {
  register: 'hami.io/node-nvidia-register',
  allocated: 'hami.io/vgpu-devices-allocated',
  memory: 'nvidia.com/gpumem',
  memoryPercent: 'nvidia.com/gpumem-percentage',
  cores: 'nvidia.com/gpucores',
} as const;

/** A physical GPU of a HAMi node: its id (the GPU's UUID) and memory in MiB. */
export interface HamiDevice {
  id: string;
  memory: number;
}

/**
 * The physical GPUs a HAMi node registered: HAMi 2.x writes a JSON array
 * (`[{"id":"GPU-…","count":10,"devmem":24576,"devcore":100,…}]`), earlier releases
 * `<id>,<count>,<devmem>,<devcore>,<type>,<numa>,<health>` per GPU, `:` between them. Null on a node
 * HAMi does not manage (or whose annotation is unreadable: its `nvidia.com/gpu` is then read as it is).
 */
export function hamiDevices(nodeAnnotations: Readonly<Record<string, string>> | undefined): HamiDevice[] | null {
  const text = nodeAnnotations?.[HAMI.register]?.trim();
  if (!text) return null;
  let devices: HamiDevice[];
  if (text.startsWith('[')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      devices = (Array.isArray(parsed) ? parsed : []).map((d: { id?: unknown; devmem?: unknown }) => ({
        id: String(d?.id ?? ''),
        memory: Number(d?.devmem),
      }));
    } catch {
      return null;
    }
  } else
    devices = text
      .split(':')
      .filter((entry) => entry.trim() !== '')
      .map((entry) => {
        const [id, , devmem] = entry.split(',');
        return { id: id?.trim() ?? '', memory: Number(devmem) };
      });
  const known = devices.filter((d) => d.id !== '');
  return known.length > 0 ? known : null;
}

/**
 * The GPUs a pod holds on a HAMi node, each of its GPUs counted at the larger of its memory's
 * share and its cores' share (a pod with a quarter of the memory and half the cores keeps others
 * off half the GPU). From what HAMi allocated (`hami.io/vgpu-devices-allocated`:
 * `<uuid>,<type>,<MiB>,<cores %>` per GPU, `:` between GPUs, `;` between containers); before HAMi
 * has written it, from the pod's resources (`nvidia.com/gpu` vGPUs, each with `nvidia.com/gpumem`
 * over the GPU's memory or `nvidia.com/gpumem-percentage`, all of it when neither is given, as HAMi
 * gives, and `nvidia.com/gpucores`). `resources`: each container's limits over its requests.
 */
export function hamiShare(
  annotations: Readonly<Record<string, string>>,
  resources: readonly Readonly<Record<string, string>>[],
  devices: readonly HamiDevice[],
): number {
  const memoryOf = new Map(devices.map((d) => [d.id, d.memory]));
  const allocated = (annotations[HAMI.allocated] ?? '')
    .split(/[;:]/)
    .map((entry) => entry.split(','))
    .filter((fields) => fields.length >= 4 && fields[0]!.trim() !== '');
  if (allocated.length > 0)
    return allocated.reduce((sum, [id, , mib, cores]) => {
      const memory = memoryOf.get(id!.trim()) ?? devices[0]?.memory ?? 0;
      return sum + shareOf(memory > 0 ? Number(mib) / memory : 0, Number(cores) / 100);
    }, 0);
  const memory = devices[0]?.memory ?? 0;
  return resources.reduce((sum, r) => {
    const vgpus = Number(r['nvidia.com/gpu'] ?? 0);
    if (!(vgpus > 0)) return sum;
    const mib = Number(r[HAMI.memory]);
    const percent = Number(r[HAMI.memoryPercent]);
    const memoryShare = mib > 0 ? (memory > 0 ? mib / memory : 1) : percent > 0 ? percent / 100 : 1;
    return sum + vgpus * shareOf(memoryShare, Number(r[HAMI.cores] ?? 0) / 100);
  }, 0);
}

/** One GPU's share: the larger of memory and cores, within (0, 1]. */
function shareOf(memory: number, cores: number): number {
  const share = Math.max(Number.isFinite(memory) ? memory : 0, Number.isFinite(cores) ? cores : 0);
  return Math.min(1, Math.max(0, share));
}
