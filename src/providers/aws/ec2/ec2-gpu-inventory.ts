import { DescribeCapacityReservationsCommand, EC2Client, paginateDescribeInstances, type Instance } from '@aws-sdk/client-ec2';
import { explainEc2Error } from './ec2-errors.js';
import { loadPriceCatalog } from '../../../catalog/price-catalog.js';
import type { PriceCatalog } from '../../../domain/price-catalog.js';
import type { GpuInstance } from '../../../domain/gpu-inventory.js';
import { gpuInstanceOf } from './gpu-instance-of.js';

export interface Ec2GpuInventoryOptions {
  regions: readonly string[];
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
  /** The EC2 client of a region (one per region, shared with the stop port). */
  clientFor: (region: string) => EC2Client;
  catalog?: PriceCatalog;
}

/**
 * EC2's GPU families, as DescribeInstances filter wildcards: every P (p3, p4d, p5, p6...) and G
 * (g4dn, g5, g6, g6e...) type, including ones newer than the price catalog, which are reported
 * with no price rather than missed.
 */
const GPU_FAMILIES = ['p*', 'g*'];

/** A stopped instance stays listed: a Stop clicked on an older alert still finds its region. */
const LISTED_STATES = ['pending', 'running', 'stopping', 'stopped'];

/**
 * The GPU instances of the configured regions: DescribeInstances filtered server side to EC2's
 * GPU families, so a region with thousands of CPU instances answers with its GPU instances only.
 * Regions are read in parallel.
 */
export class Ec2GpuInventory {
  readonly permissions = ['ec2:DescribeInstances', 'ec2:DescribeCapacityReservations'] as const;
  private readonly catalog: PriceCatalog;

  constructor(private readonly options: Ec2GpuInventoryOptions) {
    this.catalog = options.catalog ?? loadPriceCatalog();
  }

  async list(): Promise<GpuInstance[]> {
    const perRegion = await Promise.all(this.options.regions.map((region) => this.listRegion(region)));
    return perRegion.flat();
  }

  private async listRegion(region: string): Promise<GpuInstance[]> {
    const client = this.options.clientFor(region);
    const instances: Instance[] = [];
    try {
      const filters = [
        { Name: 'instance-type', Values: GPU_FAMILIES },
        { Name: 'instance-state-name', Values: LISTED_STATES },
      ];
      for await (const page of paginateDescribeInstances({ client, pageSize: 1000 }, { Filters: filters }))
        for (const reservation of page.Reservations ?? []) instances.push(...(reservation.Instances ?? []));
    } catch (error) {
      throw explainEc2Error(error, 'ec2:DescribeInstances', region);
    }
    const reservationEnds = await this.reservationEnds(client, instances);
    const context = {
      region,
      catalog: this.catalog,
      tagKeys: this.options.tagKeys,
      resolveTeam: this.options.resolveTeam,
      reservationEnds,
    };
    return instances.flatMap((instance) => gpuInstanceOf(instance, context) ?? []);
  }

  /**
   * When the capacity reservations the instances run in end (a Capacity Block's end: its instances
   * are terminated 30 minutes before). Only asked when some instance runs in one. Without the
   * permission the instances are still prepaid, their end unknown: the end is a detail of the
   * alert, not a reason to lose the inventory.
   */
  private async reservationEnds(client: EC2Client, instances: readonly Instance[]): Promise<Map<string, string>> {
    const ids = [...new Set(instances.flatMap((i) => (i.CapacityReservationId ? [i.CapacityReservationId] : [])))];
    const ends = new Map<string, string>();
    if (ids.length === 0) return ends;
    try {
      const answer = await client.send(new DescribeCapacityReservationsCommand({ CapacityReservationIds: ids }));
      for (const r of answer.CapacityReservations ?? [])
        if (r.CapacityReservationId && r.EndDate) ends.set(r.CapacityReservationId, r.EndDate.toISOString());
    } catch {
      return ends;
    }
    return ends;
  }
}
