import type { protos } from '@google-cloud/compute';
import type { PriceCatalog } from '../../../domain/price-catalog.js';
import { isProtected, ownerOf, workloadOf, type GpuInstance } from '../../../domain/gpu-inventory.js';
import { ownerTagOf } from '../../../domain/ownership.js';
import { catalogMachinePrice } from '../../catalog-machine-price.js';
import { gceInstanceId, lastSegment, regionOfZone } from './gce-instance-id.js';
import { tagsOfLabels } from './gce-labels.js';
import { LAUNCH_TEMPLATE_TAG } from '../../../ports/spot-port.js';

type Instance = protos.google.cloud.compute.v1.IInstance;

export interface GceInstanceContext {
  project: string;
  catalog: PriceCatalog;
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
}

/** Machine families whose GPUs come with the machine type (A100, H100, B200, L4): the rest carry guestAccelerators. */
const GPU_MACHINE_FAMILIES = /^(a2|a3|a4|a4x|g2|g4)-/;

/** Accelerator types by their Compute Engine name: the chip as the catalog names it. */
const ACCELERATOR_MODELS: Readonly<Record<string, string>> = {
  'nvidia-tesla-t4': 'T4',
  'nvidia-tesla-v100': 'V100',
  'nvidia-tesla-p100': 'P100',
  'nvidia-tesla-p4': 'P4',
  'nvidia-tesla-k80': 'K80',
  'nvidia-tesla-a100': 'A100',
  'nvidia-a100-80gb': 'A100',
  'nvidia-h100-80gb': 'H100',
  'nvidia-h100-mega-80gb': 'H100',
  'nvidia-h200-141gb': 'H200',
  'nvidia-b200': 'B200',
  'nvidia-l4': 'L4',
};

/** Statuses of a VM that is off or on its way off: it sends no metrics because it is off. */
const OFF = new Set(['STOPPING', 'STOPPED', 'SUSPENDING', 'SUSPENDED', 'TERMINATED']);

/** Whether the VM has GPUs: accelerators attached, or a GPU machine family. */
export function hasGpus(instance: Instance): boolean {
  return (
    GPU_MACHINE_FAMILIES.test(lastSegment(instance.machineType)) ||
    (instance.guestAccelerators ?? []).some((a) => (a.acceleratorCount ?? 0) > 0)
  );
}

/**
 * One Compute Engine VM with GPUs → a GPU inventory record. A2/A3/A4/G2 types are priced from the
 * catalog in the VM's region (else its cheapest region, said so); an N1 with attached GPUs, which
 * the catalog does not price, is listed with its GPUs and no price until the bill shows it. A SPOT
 * or preemptible VM is priced at the catalog's spot price where it has one.
 */
export function gceGpuInstance(instance: Instance, context: GceInstanceContext): GpuInstance | undefined {
  if (!instance.name || instance.id === null || instance.id === undefined || !hasGpus(instance)) return undefined;
  const zone = lastSegment(instance.zone);
  const region = regionOfZone(zone);
  const machineType = lastSegment(instance.machineType);
  const spot = instance.scheduling?.provisioningModel === 'SPOT' || instance.scheduling?.preemptible === true;
  const attached = (instance.guestAccelerators ?? []).filter((a) => (a.acceleratorCount ?? 0) > 0);
  const attachedCount = attached.reduce((sum, a) => sum + (a.acceleratorCount ?? 0), 0);
  const attachedModel = attached.map((a) => lastSegment(a.acceleratorType)).map((t) => ACCELERATOR_MODELS[t] ?? t)[0];
  const tags = tagsOfLabels(instance.labels as Record<string, string> | null | undefined);
  // A VM a managed instance group made: its group is what a spot migration changes (unless a label names another).
  const group = groupOf(instance, context.project, zone);
  if (group && !tags[LAUNCH_TEMPLATE_TAG]) tags[LAUNCH_TEMPLATE_TAG] = group;
  const ownerTag = ownerTagOf(tags, context.tagKeys);
  const hostNames = [
    instance.name,
    `${instance.name}.${zone}.c.${context.project}.internal`,
    ...(instance.networkInterfaces ?? []).flatMap((n) => (n.networkIP ? [n.networkIP] : [])),
  ];
  return {
    instanceId: gceInstanceId({ project: context.project, zone, id: String(instance.id) }),
    name: instance.name,
    provider: 'gcp',
    region,
    instanceType: machineType,
    ...catalogMachinePrice(context.catalog, {
      provider: 'gcp',
      machineType,
      region,
      spot,
      noun: 'VM',
      ...(attachedModel ? { attached: { model: attachedModel, count: attachedCount } } : {}),
    }),
    lifecycle: spot ? 'spot' : 'on-demand',
    team: context.resolveTeam(ownerTag),
    ownerTag,
    workload: workloadOf(tags),
    protected: isProtected(tags),
    owner: ownerOf(tags),
    tags,
    hostNames,
    ...(OFF.has(instance.status ?? '') ? { running: false } : {}),
  };
}

/** The zonal managed instance group that created the VM (its `created-by` metadata), under the project's id. */
function groupOf(instance: Instance, project: string, zone: string): string | undefined {
  const createdBy = instance.metadata?.items?.find((item) => item.key === 'created-by')?.value ?? '';
  const name = /\/zones\/[^/]+\/instanceGroupManagers\/([^/]+)$/.exec(createdBy)?.[1];
  return name ? `projects/${project}/zones/${zone}/instanceGroupManagers/${name}` : undefined;
}
