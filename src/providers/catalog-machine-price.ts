import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { CloudProvider, PriceCatalog } from '../domain/price-catalog.js';

/** The GPU model of a machine type the catalog does not know. */
const UNKNOWN_GPU = '(unknown)';

/** The part of a GPU inventory record the price catalog fills in. */
export type CatalogMachinePrice = Pick<GpuInstance, 'gpuModel' | 'gpuCount' | 'gpuMemoryGiB' | 'hourlyPrice' | 'priceNote'>;

export interface MachineToPrice {
  provider: CloudProvider;
  machineType: string;
  region: string;
  spot: boolean;
  /** What the machine is called in a note: instance, VM. */
  noun: string;
  /** The GPUs the cloud itself says the machine has (Compute Engine's attached accelerators), for a type the catalog does not know. */
  attached?: { model: string; count: number };
}

/**
 * A GPU machine's catalog price, the same for every cloud's VMs. A type in a region the catalog
 * does not cover is priced as in the catalog's cheapest region for it (so its idle cost is never
 * overstated), and says so. A type the catalog does not know at all (newer than it) is kept with
 * no price and says so: the bill prices it once it shows the machine (the GPU snapshot's billed
 * rate). A spot machine is priced at the catalog's spot price where it has one, else on-demand: an
 * upper bound, never an invented figure.
 */
export function catalogMachinePrice(catalog: PriceCatalog, machine: MachineToPrice): CatalogMachinePrice {
  const { provider, machineType, region } = machine;
  const own = catalog.priceOf(provider, machineType, region);
  const price = own ?? catalog.cheapestRegionOf(provider, machineType);
  if (price)
    return {
      gpuModel: price.gpuModel,
      gpuCount: price.gpuCount,
      gpuMemoryGiB: price.gpuMemoryGiB,
      hourlyPrice: machine.spot ? (price.spotHourly ?? price.onDemandHourly) : price.onDemandHourly,
      ...(own ? {} : { priceNote: `priced as in ${price.region}: the price catalog has no ${machineType} price for ${region}` }),
    };
  const attached = machine.attached;
  return {
    gpuModel: attached?.model ?? UNKNOWN_GPU,
    gpuCount: attached?.count ?? 0,
    gpuMemoryGiB: null,
    hourlyPrice: 0,
    priceNote: `no price: the price catalog has no ${machineType}${attached ? ` with ${attached.count}× ${attached.model}` : ''}; priced by the bill once it shows the ${machine.noun} (or add the type to the catalog)`,
  };
}
