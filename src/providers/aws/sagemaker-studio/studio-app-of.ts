import type { DescribeAppResponse } from '@aws-sdk/client-sagemaker';
import type { PriceCatalog } from '../../../domain/price-catalog.js';
import { isProtected, ownerOf, workloadOf, type GpuInstance, type NotebookPlatform } from '../../../domain/gpu-inventory.js';
import { ownerTagOf } from '../../../domain/ownership.js';
import { catalogMachinePrice } from '../../catalog-machine-price.js';

/** SageMaker's GPU instance types: ml.g4dn, ml.g5, ml.g6, ml.g6e, ml.p3, ml.p4d, ml.p5... (not ml.trn or ml.inf). */
const GPU_TYPE = /^ml\.[pg]\d/;

/** Whether a Studio app's instance type has GPUs. */
export function isGpuType(instanceType: string | undefined): instanceType is string {
  return instanceType !== undefined && GPU_TYPE.test(instanceType);
}

export interface StudioAppContext {
  region: string;
  catalog: PriceCatalog;
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
}

/** Whose record "idle" is for a Studio app: Studio publishes no GPU utilisation for its apps. */
const STUDIO_ACTIVITY = "SageMaker Studio's record of user activity";

/**
 * A running Studio app on a GPU instance → a GPU inventory record. Its GPUs are the EC2 type's
 * under the ml. prefix; its price is the bill's (the GPU snapshot's billed rate) or the catalog's
 * where it has the ml. type: SageMaker's prices are not EC2's, so none is borrowed from EC2.
 */
export function studioAppOf(
  app: DescribeAppResponse & { AppArn: string },
  instanceType: string,
  tags: Readonly<Record<string, string>>,
  notebook: NotebookPlatform,
  context: StudioAppContext,
): GpuInstance {
  const { region, catalog } = context;
  const ec2Type = instanceType.replace(/^ml\./, '');
  const hardware = catalog.priceOf('aws', ec2Type, region) ?? catalog.cheapestRegionOf('aws', ec2Type);
  const price = catalogMachinePrice(catalog, {
    provider: 'aws',
    machineType: instanceType,
    region,
    spot: false,
    noun: 'app',
    ...(hardware ? { attached: { model: hardware.gpuModel, count: hardware.gpuCount } } : {}),
  });
  const ownerTag = ownerTagOf(tags, context.tagKeys);
  const tagged = workloadOf(tags);
  const lastActive = [app.LastUserActivityTimestamp, app.CreationTime].find((t) => t !== undefined);
  return {
    instanceId: app.AppArn,
    name: `${app.SpaceName ?? app.UserProfileName ?? app.AppName} (${app.AppType})`,
    provider: 'aws',
    region,
    instanceType,
    ...price,
    gpuMemoryGiB: price.gpuMemoryGiB ?? hardware?.gpuMemoryGiB ?? null,
    lifecycle: 'on-demand',
    team: context.resolveTeam(ownerTag),
    ownerTag,
    workload: tagged === 'unknown' ? 'notebook' : tagged,
    protected: isProtected(tags),
    owner: ownerOf(tags),
    tags,
    notebook,
    ...(lastActive ? { activity: { lastActiveAt: lastActive.toISOString(), signal: STUDIO_ACTIVITY } } : {}),
  };
}
