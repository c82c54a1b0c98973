import type { InstancesClient, protos } from '@google-cloud/compute';
import { loadPriceCatalog } from '../../../catalog/price-catalog.js';
import type { GpuInstance } from '../../../domain/gpu-inventory.js';
import type { PriceCatalog } from '../../../domain/price-catalog.js';
import { explainGoogleError } from '../gcp-errors.js';
import { gceGpuInstance } from './gce-gpu-instance.js';
import { GCE_LIST } from './gce-permissions.js';

export interface GceGpuInventoryOptions {
  projects: readonly string[];
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
  client: InstancesClient;
  catalog?: PriceCatalog;
}

/** VMs per aggregatedList page: Compute Engine's maximum. */
const PAGE_SIZE = 500;

/**
 * The GPU VMs of the configured projects, every zone at once: instances.aggregatedList, page by
 * page (pageToken), keeping the VMs with attached accelerators or a GPU machine family (Compute
 * Engine's filter cannot say "has GPUs"). Projects are read in parallel.
 */
export class GceGpuInventory {
  readonly permissions = [GCE_LIST.permission] as const;
  private readonly catalog: PriceCatalog;

  constructor(private readonly options: GceGpuInventoryOptions) {
    this.catalog = options.catalog ?? loadPriceCatalog();
  }

  async list(): Promise<GpuInstance[]> {
    return (await Promise.all(this.options.projects.map((project) => this.listProject(project)))).flat();
  }

  private async listProject(project: string): Promise<GpuInstance[]> {
    const instances: protos.google.cloud.compute.v1.IInstance[] = [];
    try {
      const pages = this.options.client.aggregatedListAsync({ project, maxResults: PAGE_SIZE }, { autoPaginate: false });
      for await (const [, scoped] of pages) instances.push(...(scoped.instances ?? []));
    } catch (error) {
      throw explainGoogleError(error, { ...GCE_LIST, service: 'Compute Engine', resource: `project ${project}` });
    }
    const context = { project, catalog: this.catalog, tagKeys: this.options.tagKeys, resolveTeam: this.options.resolveTeam };
    return instances.flatMap((instance) => gceGpuInstance(instance, context) ?? []);
  }
}
