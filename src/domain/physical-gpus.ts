import type { GpuRef } from './gpu-metrics.js';

// MIG splits one physical GPU into slices, each with its own series, pod and team. A machine still
// has the GPUs it was bought with: counts and prices go by physical GPUs, a slice by its share.

/** The series' own identity: one per whole GPU, one per MIG slice. */
export function seriesKey(ref: GpuRef): string {
  return `${ref.host}\u0000${ref.gpu}\u0000${ref.mig?.instance ?? ''}`;
}

/** The physical GPU a series measures: one per host and GPU index (its UUID where the source gives one). */
export function physicalGpuKey(ref: GpuRef): string {
  return `${ref.host}\u0000${ref.uuid ?? `#${ref.gpu}`}`;
}

/** Physical GPUs among these series: slices of one GPU count once. */
export function countPhysicalGpus(refs: Iterable<GpuRef>): number {
  const keys = new Set<string>();
  for (const ref of refs) keys.add(physicalGpuKey(ref));
  return keys.size;
}

/** The share of its physical GPU a series stands for: 1 for a whole GPU, a slice's compute share (3g of 7 is 3/7). */
export function gpuShareOf(ref: GpuRef): number {
  if (!ref.mig) return 1;
  const slices = slicesPerGpu(ref.model);
  const share = ref.mig.profile ? migProfileShare(ref.mig.profile, slices) : null;
  // dcgm-exporter always writes GPU_I_PROFILE beside GPU_I_ID; without one, the smallest slice is all that is known.
  return share ?? 1 / (slices ?? 7);
}

/**
 * A MIG profile's share of its GPU by compute slices: `3g.40gb` is 3 of an H100's 7, `2g.12gb` 2
 * of an A30's 4, a compute instance `1c.3g.40gb` 1 of 7. `slicesPerGpu` from the model where it is
 * known; else the A30's profiles (6 GB a slice, no other GPU has them) say 4, every other 7.
 * Null for a name that is no MIG profile.
 */
export function migProfileShare(profile: string, slicesPerGpu: number | null = null): number | null {
  const match = /^(?:(\d+)c\.)?(\d+)g\.(\d+)gb/.exec(profile);
  if (!match) return null;
  const [computeSlices, gpuSlices, gib] = [match[1], Number(match[2]), Number(match[3])];
  const total = slicesPerGpu ?? (gib === 6 * gpuSlices ? 4 : 7);
  return Math.min(1, Number(computeSlices ?? gpuSlices) / total);
}

/** Compute slices of a MIG-capable model: A30 and RTX PRO 6000 Blackwell have 4; A100, H100, H200, B200 7; null when unknown. */
export function slicesPerGpu(model: string | undefined): number | null {
  if (!model) return null;
  if (/\bA30\b|RTX PRO 6000/i.test(model)) return 4;
  if (/\b(A100|H100|H200|H20|GH200|B200|GB200|B300)\b/i.test(model)) return 7;
  return null;
}
