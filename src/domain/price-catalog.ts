// The shapes of the GPU price catalog: what an instance type costs, and how it is looked up.
// The catalog's data and loader live in src/catalog/; rules and findings need only these types.

export type CloudProvider = 'aws' | 'gcp' | 'azure';

/** The list price of one GPU instance type in one region, USD per hour. */
export interface GpuPrice {
  provider: CloudProvider;
  instanceType: string;
  /** Chip name without vendor: A100, H100, L4, A10G, ... (80 GB variants are told apart by memory). */
  gpuModel: string;
  gpuCount: number;
  /** GPU memory of the whole instance; null where public sources disagree or say nothing. */
  gpuMemoryGiB: number | null;
  vcpus: number;
  memoryGiB: number;
  region: string;
  onDemandHourly: number;
  /** The median of the region's zone spot prices; null where the sources have none (or none plausible). */
  spotHourly: number | null;
  /** A 1-year commitment's rate (AWS reserved instance, no upfront); absent where the sources have none. */
  committedHourly?: number;
}

/** A catalog row left out because it contradicts its family's order (src/catalog/price-order.ts), and why. */
export interface DroppedPrice {
  provider: CloudProvider;
  instanceType: string;
  region: string;
  /** Its on-demand price, and the type it holds all of that is listed above it. */
  onDemandHourly: number;
  below: { instanceType: string; onDemandHourly: number };
  note: string;
}

export interface PriceCatalog {
  readonly entries: readonly GpuPrice[];
  /** Rows the loader left out, each with its note; absent or empty when none was. */
  readonly dropped?: readonly DroppedPrice[];
  priceOf(provider: CloudProvider, instanceType: string, region: string): GpuPrice | undefined;
  /** Every GPU instance type priced in a region, cheapest first. */
  typesIn(provider: CloudProvider, region: string): GpuPrice[];
  /** A type as priced in the region where it costs least: for a region the catalog does not cover. */
  cheapestRegionOf(provider: CloudProvider, instanceType: string): GpuPrice | undefined;
}
