// What a GPU model can do, as far as moving a workload to another one goes: its architecture
// generation (a workload may move to the same or a newer one, never an older one: it may rely on
// bf16, fp8 or the memory bandwidth it has), and whether the family is retired (never proposed).

export interface GpuArchitecture {
  name: string;
  /** CUDA compute capability, major.minor: the order of generations. */
  computeCapability: number;
  /** No longer sold or supported by current drivers and frameworks: never a target. */
  retired: boolean;
}

const KEPLER: GpuArchitecture = { name: 'Kepler', computeCapability: 3.7, retired: true };
const MAXWELL: GpuArchitecture = { name: 'Maxwell', computeCapability: 5.2, retired: true };
const VOLTA: GpuArchitecture = { name: 'Volta', computeCapability: 7.0, retired: false };
const TURING: GpuArchitecture = { name: 'Turing', computeCapability: 7.5, retired: false };
const AMPERE_DATACENTER: GpuArchitecture = { name: 'Ampere', computeCapability: 8.0, retired: false };
const AMPERE: GpuArchitecture = { name: 'Ampere', computeCapability: 8.6, retired: false };
const ADA: GpuArchitecture = { name: 'Ada Lovelace', computeCapability: 8.9, retired: false };
const HOPPER: GpuArchitecture = { name: 'Hopper', computeCapability: 9.0, retired: false };
const BLACKWELL: GpuArchitecture = { name: 'Blackwell', computeCapability: 10.0, retired: false };
const BLACKWELL_WORKSTATION: GpuArchitecture = { name: 'Blackwell', computeCapability: 12.0, retired: false };

/** By the catalog's model names (gpuModel). */
const BY_MODEL: Readonly<Record<string, GpuArchitecture>> = {
  K80: KEPLER,
  M60: MAXWELL,
  V100: VOLTA,
  T4: TURING,
  A100: AMPERE_DATACENTER,
  A10G: AMPERE,
  A10: AMPERE,
  L4: ADA,
  L40S: ADA,
  H100: HOPPER,
  H200: HOPPER,
  B200: BLACKWELL,
  B300: BLACKWELL,
  'RTX PRO 6000 Blackwell': BLACKWELL_WORKSTATION,
};

/**
 * Dense tensor throughput per GPU, TFLOPS (bf16; fp16 where the GPU has no bf16: V100, T4), from
 * NVIDIA's data sheets: what one GPU can compute, to tell whether work fits a smaller one.
 */
const TENSOR_TFLOPS: Readonly<Record<string, number>> = {
  V100: 125,
  T4: 65,
  A100: 312,
  A10G: 70,
  A10: 125,
  L4: 121,
  L40S: 362,
  H100: 989,
  H200: 989,
  B200: 2250,
  B300: 2250,
};

/** A catalog GPU model's dense tensor TFLOPS per GPU; null for a model the table does not know. */
export function tensorTflopsOf(gpuModel: string): number | null {
  return TENSOR_TFLOPS[gpuModel] ?? null;
}

/** The architecture of a catalog GPU model; null for a model this table does not know. */
export function architectureOf(gpuModel: string): GpuArchitecture | null {
  return BY_MODEL[gpuModel] ?? null;
}

/**
 * Whether work on `from` can move to `to` without losing what it may use: a known, current
 * architecture of the same or a newer generation. Unknown models never qualify as targets.
 */
export function canMoveTo(from: string, to: string): boolean {
  const source = architectureOf(from);
  const target = architectureOf(to);
  if (!target || target.retired) return false;
  return source === null ? false : target.computeCapability >= source.computeCapability;
}

/** How a multi-GPU type's GPUs talk to each other: what multi-GPU training depends on. */
export type Interconnect = 'NVLink' | 'PCIe';

/**
 * By instance family: AWS P (p4d, p5, p6) and Google Cloud A2/A3/A4 link their GPUs with NVLink
 * (and carry EFA / GPUDirect networking); AWS G and Google Cloud G2 and N1 with PCIe only.
 */
export function interconnectOf(instanceType: string): Interconnect {
  return /^(p\d|a\d)/i.test(instanceType) ? 'NVLink' : 'PCIe';
}
