/**
 * Builds src/catalog/gpu-prices.json, the project's GPU price catalog, from the shared price tables
 * (see src/catalog/SOURCES.md for where each file comes from and what is transformed here).
 *
 *   node dist/scripts/build-price-catalog.js ../shared/data/gpu_prices [out.json]
 *
 * The output is deterministic (sorted, no timestamps), so re-running it on the same inputs changes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCatalog } from '../src/catalog/format-catalog.js';
import type { CloudProvider, GpuPrice } from '../src/domain/price-catalog.js';

export { formatCatalog };

export const SOURCE_FILES = {
  awsOnDemand: 'aws_gpu_instances_vantage_ondemand_reserved.csv',
  awsSpot: 'aws_gpu_vms_skypilot_v7_subset.csv',
  gcp: 'gcp_gpu_vms.csv',
  azure: 'azure_gpu_vms.csv',
} as const;

type Row = Record<string, string>;

/**
 * Parses the shared CSVs (no quoting in any of them). A row with more fields than the header has an
 * unquoted comma inside `looseColumn`: the fields before it map from the left, those after it from the
 * right, and the surplus is joined back into the loose column (Azure's `V1,V2` Generation value).
 */
export function parseCsv(text: string, looseColumn?: string): Row[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = (lines.shift() ?? '').split(',');
  const loose = looseColumn === undefined ? header.length - 1 : header.indexOf(looseColumn);
  if (loose < 0) throw new Error(`column ${looseColumn} not in header ${header.join(',')}`);
  return lines.map((line, index) => {
    const fields = line.split(',');
    if (fields.length < header.length) throw new Error(`line ${index + 2}: ${fields.length} fields, expected ${header.length}`);
    const surplus = fields.length - header.length;
    const row: Row = {};
    header.forEach((name, i) => {
      if (i < loose) row[name] = fields[i] ?? '';
      else if (i === loose) row[name] = fields.slice(i, i + surplus + 1).join(',');
      else row[name] = fields[i + surplus] ?? '';
    });
    return row;
  });
}

const num = (text: string | undefined): number => Number.parseFloat(text ?? '');
const price = (value: number): number => Math.round(value * 1e5) / 1e5;
/**
 * The median of a region's zone spot prices: what an instance in any of its zones typically pays
 * (the lowest zone's price overstates the saving for an instance placed elsewhere).
 */
const spotOrNull = (values: number[]): number | null => {
  const valid = values.filter((v) => Number.isFinite(v) && v > 0).sort((a, b) => a - b);
  if (valid.length === 0) return null;
  const mid = valid.length >> 1;
  return price(valid.length % 2 === 1 ? valid[mid]! : (valid[mid - 1]! + valid[mid]!) / 2);
};

// ---- AWS --------------------------------------------------------------------------------------

/** Per-GPU memory (GiB) by model, for when the vantage row lacks it or gives a per-GPU figure. */
const AWS_GPU_MEMORY: Record<string, number> = {
  M60: 8,
  K80: 12,
  V100: 16,
  T4: 16,
  A10G: 24,
  L4: 24,
  L40S: 48,
  A100: 40,
  H100: 80,
  H200: 141,
  B200: 179, // AWS lists 1,432 GB for the 8 GPUs of p6-b200.48xlarge
  'RTX PRO 6000 Blackwell': 96,
};
/** Instance types whose GPU variant differs from the model's default. */
const AWS_MEMORY_OVERRIDES: Record<string, number | null> = {
  'p3dn.24xlarge': 32, // V100 32 GB
  'p4de.24xlarge': 80, // A100 80 GB
  // The source says 262 GB while AWS announces 268 GB per B300 (2.1 TB per instance): not settled, so unknown.
  'p6-b300.48xlarge': null,
};

function awsModel(gpu: string): string {
  return gpu.replace(/^NVIDIA /, '').replace(/^(B[23]00) Blackwell$/, '$1');
}

function awsGpuMemory(instanceType: string, model: string, count: number, given: string): number | null {
  if (instanceType in AWS_MEMORY_OVERRIDES) {
    const perGpu = AWS_MEMORY_OVERRIDES[instanceType];
    return perGpu === null || perGpu === undefined ? null : perGpu * count;
  }
  const perGpu = AWS_GPU_MEMORY[model];
  if (perGpu === undefined) return null;
  // The vantage figure is per GPU for older families and per instance for p4d/p5/p5en/p6: accept either.
  const stated = num(given);
  if (Number.isFinite(stated) && stated !== perGpu && stated !== perGpu * count) {
    throw new Error(`${instanceType}: source says ${given} of GPU memory, model table says ${perGpu} GiB per GPU`);
  }
  return perGpu * count;
}

export function buildAws(onDemandCsv: string, spotCsv: string): GpuPrice[] {
  const spot = new Map<string, number[]>();
  for (const row of parseCsv(spotCsv)) {
    const key = `${row.InstanceType}|${row.Region}`;
    spot.set(key, [...(spot.get(key) ?? []), num(row.SpotPrice)]);
  }
  const entries: GpuPrice[] = [];
  for (const row of parseCsv(onDemandCsv)) {
    const instanceType = row.InstanceType ?? '';
    const region = row.Region ?? '';
    const gpuCount = num(row.GpuCount);
    // NVIDIA GPUs only (what DCGM and nvidia-smi watch), current generation, whole GPUs (no g6f slices).
    if (row.Family !== 'GPU instance' || !row.Gpu?.startsWith('NVIDIA ') || row.Generation !== 'current') continue;
    // Every region the table prices (local zones too): an instance anywhere gets its own region's price.
    if (region === '' || !Number.isInteger(gpuCount) || gpuCount < 1) continue;
    const gpuModel = awsModel(row.Gpu);
    entries.push({
      provider: 'aws',
      instanceType,
      gpuModel,
      gpuCount,
      gpuMemoryGiB: awsGpuMemory(instanceType, gpuModel, gpuCount, row.GpuMemory ?? ''),
      vcpus: num(row.vCPUs),
      memoryGiB: num(row.Memory),
      region,
      onDemandHourly: price(num(row.OnDemandHourlyUSD)),
      spotHourly: spotOrNull(spot.get(`${instanceType}|${region}`) ?? []),
      ...committedOf(row.Reserved1yrHourlyUSD_as_given, num(row.OnDemandHourlyUSD)),
    });
  }
  return entries;
}

/** The 1-year reserved rate, where the table gives one below on-demand (omitted otherwise, to keep the file small). */
function committedOf(text: string | undefined, onDemand: number): { committedHourly?: number } {
  const committed = num(text ?? '');
  return Number.isFinite(committed) && committed > 0 && committed < onDemand ? { committedHourly: price(committed) } : {};
}

// ---- GCP --------------------------------------------------------------------------------------

/** g2-standard-N carries a fixed number of L4s (Google's machine type table; the CSV does not say). */
const G2_L4_COUNT: Record<string, number> = {
  'g2-standard-4': 1,
  'g2-standard-8': 1,
  'g2-standard-12': 1,
  'g2-standard-16': 1,
  'g2-standard-24': 2,
  'g2-standard-32': 1,
  'g2-standard-48': 4,
  'g2-standard-96': 8,
};

/** Which accelerator row (name as in the CSV) and how many GPUs a machine type carries. */
export function gcpAccelerator(machine: string): { accelerator: string; count: number } | null {
  const l4 = G2_L4_COUNT[machine];
  if (l4 !== undefined) return { accelerator: 'L4', count: l4 };
  const match = /^(a2-highgpu|a2-megagpu|a2-ultragpu|a3-highgpu|a3-edgegpu|a3-megagpu|a3-ultragpu|a4-highgpu)-(\d+)g(-nolssd)?$/.exec(
    machine,
  );
  if (!match) return null;
  const accelerator: Record<string, string> = {
    'a2-highgpu': 'A100',
    'a2-megagpu': 'A100',
    'a2-ultragpu': 'A100-80GB',
    'a3-highgpu': 'H100',
    'a3-edgegpu': 'H100',
    'a3-megagpu': 'H100-MEGA',
    'a3-ultragpu': 'H200',
    'a4-highgpu': 'B200',
  };
  return { accelerator: accelerator[match[1] ?? ''] ?? '', count: Number(match[2]) };
}

/** Catalog accelerator names to one GPU model name per chip (the memory tells the variants apart). */
const GCP_MODEL: Record<string, string> = { 'A100-80GB': 'A100', 'H100-MEGA': 'H100' };

export function buildGcp(csv: string): GpuPrice[] {
  const rows = parseCsv(csv, 'GpuInfo').filter((row) => (row.Region ?? '') !== '');
  // GPU rows have no InstanceType; each prices an attachment of AcceleratorCount GPUs in one zone.
  const gpuRows = new Map<string, Row>();
  for (const row of rows) {
    if (row.InstanceType === '') gpuRows.set(`${row.AcceleratorName}|${num(row.AcceleratorCount)}|${row.AvailabilityZone}`, row);
  }
  const perRegion = new Map<string, { entry: GpuPrice; onDemand: number[]; spot: number[] }>();
  for (const machine of rows) {
    const accel = machine.InstanceType ? gcpAccelerator(machine.InstanceType) : null;
    if (!accel) continue;
    const gpu = gpuRows.get(`${accel.accelerator}|${accel.count}|${machine.AvailabilityZone}`);
    if (!gpu) continue; // the machine is listed in a zone that has no price for its GPUs
    const mib = /SizeInMiB'?:\s*(\d+)/.exec(gpu.GpuInfo ?? '')?.[1];
    const key = `${machine.InstanceType}|${machine.Region}`;
    const slot = perRegion.get(key) ?? {
      entry: {
        provider: 'gcp' as const,
        instanceType: machine.InstanceType ?? '',
        gpuModel: GCP_MODEL[accel.accelerator] ?? accel.accelerator,
        gpuCount: accel.count,
        gpuMemoryGiB: mib === undefined ? null : (Number(mib) / 1024) * accel.count,
        vcpus: num(machine.vCPUs),
        memoryGiB: num(machine.MemoryGiB),
        region: machine.Region ?? '',
        onDemandHourly: 0,
        spotHourly: null,
      },
      onDemand: [],
      spot: [],
    };
    // a2/a3/a4/g2 machine prices exclude the GPUs: the machine plus its GPU attachment is the instance price.
    slot.onDemand.push(num(machine.Price) + num(gpu.Price));
    const machineSpot = num(machine.SpotPrice);
    const gpuSpot = num(gpu.SpotPrice);
    if (Number.isFinite(machineSpot) && Number.isFinite(gpuSpot)) slot.spot.push(machineSpot + gpuSpot);
    perRegion.set(key, slot);
  }
  return [...perRegion.values()].map(({ entry, onDemand, spot }) => ({
    ...entry,
    onDemandHourly: price(Math.min(...onDemand)),
    spotHourly: spotOrNull(spot),
  }));
}

// ---- Azure ------------------------------------------------------------------------------------

/** Per-GPU memory (GiB) by the CSV's accelerator name; AMD (MI25, MI300X) is left out of the catalog. */
const AZURE_GPU_MEMORY: Record<string, number | null> = {
  M60: 8,
  T4: 16,
  V100: 16,
  'V100-32GB': 32,
  A10: 24,
  A100: 40,
  'A100-80GB': 80,
  H100: 80,
  H200: 141,
};
/** NC H100 v5 sizes: public sources disagree (H100 NVL 94 GB vs 80 GB), so memory stays unknown. */
const AZURE_MEMORY_UNKNOWN = /^Standard_NCC?\d+adi?s_H100_v5$/;
const AZURE_MODEL: Record<string, string> = { 'V100-32GB': 'V100', 'A100-80GB': 'A100' };

export function buildAzure(csv: string): GpuPrice[] {
  const entries: GpuPrice[] = [];
  for (const row of parseCsv(csv, 'Generation')) {
    const accelerator = row.AcceleratorName ?? '';
    const gpuCount = num(row.AcceleratorCount);
    const instanceType = row.InstanceType ?? '';
    if ((row.Region ?? '') === '' || !(accelerator in AZURE_GPU_MEMORY)) continue;
    if (!Number.isInteger(gpuCount) || gpuCount < 1) continue; // NVads A10 v5 sells GPU slices
    const perGpu = AZURE_MEMORY_UNKNOWN.test(instanceType) ? null : (AZURE_GPU_MEMORY[accelerator] ?? null);
    entries.push({
      provider: 'azure',
      instanceType,
      gpuModel: AZURE_MODEL[accelerator] ?? accelerator,
      gpuCount,
      gpuMemoryGiB: perGpu === null ? null : perGpu * gpuCount,
      vcpus: num(row.vCPUs),
      memoryGiB: num(row.MemoryGiB),
      region: row.Region ?? '',
      onDemandHourly: price(num(row.Price)),
      spotHourly: spotOrNull([num(row.SpotPrice)]),
    });
  }
  return entries;
}

// ---- all --------------------------------------------------------------------------------------

const PROVIDER_ORDER: Record<CloudProvider, number> = { aws: 0, gcp: 1, azure: 2 };

export function buildPriceCatalog(dir: string): GpuPrice[] {
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const entries = [
    ...buildAws(read(SOURCE_FILES.awsOnDemand), read(SOURCE_FILES.awsSpot)),
    ...buildGcp(read(SOURCE_FILES.gcp)),
    ...buildAzure(read(SOURCE_FILES.azure)),
  ].filter((e) => Number.isFinite(e.onDemandHourly) && e.onDemandHourly > 0);
  const seen = new Set<string>();
  for (const e of entries) {
    const key = `${e.provider}|${e.instanceType}|${e.region}`;
    if (seen.has(key)) throw new Error(`duplicate catalog entry ${key}`);
    seen.add(key);
  }
  return entries.sort(
    (a, b) =>
      PROVIDER_ORDER[a.provider] - PROVIDER_ORDER[b.provider] ||
      a.instanceType.localeCompare(b.instanceType, 'en', { numeric: true }) ||
      a.region.localeCompare(b.region),
  );
}

function main(argv: string[]): void {
  const [dir, out] = argv;
  if (!dir) {
    console.error('usage: node dist/scripts/build-price-catalog.js <gpu_prices folder> [out.json]');
    process.exitCode = 2;
    return;
  }
  // Compiled to dist/scripts/: the committed catalog lives two levels up, in src/catalog/.
  const target = out ? resolve(out) : fileURLToPath(new URL('../../src/catalog/gpu-prices.json', import.meta.url));
  const entries = buildPriceCatalog(resolve(dir));
  const text = formatCatalog(entries);
  writeFileSync(target, text);
  const count = (p: CloudProvider) => entries.filter((e) => e.provider === p).length;
  console.log(
    `${target}: ${entries.length} entries (aws ${count('aws')}, gcp ${count('gcp')}, azure ${count('azure')}), ${text.length} bytes`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
