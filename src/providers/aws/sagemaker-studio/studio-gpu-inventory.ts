import {
  DescribeAppCommand,
  DescribeDomainCommand,
  DescribeSpaceCommand,
  paginateListApps,
  paginateListDomains,
  type AppDetails,
  type DescribeDomainResponse,
  type IdleSettings,
  type SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import { loadPriceCatalog } from '../../../catalog/price-catalog.js';
import type { GpuInstance } from '../../../domain/gpu-inventory.js';
import type { PriceCatalog } from '../../../domain/price-catalog.js';
import { explainStudioError, readOptional, studioTags } from './studio-calls.js';
import { STUDIO_INVENTORY_PERMISSIONS } from './studio-permissions.js';
import { isGpuType, studioAppOf, type StudioAppContext } from './studio-app-of.js';
import { studioIdleShutdown, type Unreadable } from './studio-idle-shutdown.js';
import { spaceArnOf, studioAppRefOf } from './studio-app-arn.js';

export interface StudioGpuInventoryOptions {
  regions: readonly string[];
  /** Only these domain ids; absent: every domain of the regions. */
  domains?: readonly string[] | undefined;
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
  /** The SageMaker client of a region (one per region, shared with the Stop port). */
  clientFor: (region: string) => SageMakerClient;
  catalog?: PriceCatalog;
}

/** ListApps' largest page. */
const APPS_PAGE = 100;

/**
 * The running SageMaker Studio apps on GPU instances of the configured regions, with what Studio's
 * own idle shutdown is set to and when someone last used each. ListApps names each app's instance
 * type, so CPU apps cost no further call; only GPU apps are described. A denied read of a domain's
 * or space's idle shutdown loses only that setting (the alert names the action to allow); a denied
 * list, app or tag read is an error naming its action.
 */
export class StudioGpuInventory {
  readonly permissions = STUDIO_INVENTORY_PERMISSIONS;
  private readonly catalog: PriceCatalog;

  constructor(private readonly options: StudioGpuInventoryOptions) {
    this.catalog = options.catalog ?? loadPriceCatalog();
  }

  async list(): Promise<GpuInstance[]> {
    return (await Promise.all(this.options.regions.map((region) => this.listRegion(region)))).flat();
  }

  private async listRegion(region: string): Promise<GpuInstance[]> {
    const client = this.options.clientFor(region);
    const domainIds: string[] = [];
    try {
      for await (const page of paginateListDomains({ client }, {}))
        for (const domain of page.Domains ?? []) if (domain.DomainId) domainIds.push(domain.DomainId);
    } catch (error) {
      throw explainStudioError(error, 'sagemaker:ListDomains', region);
    }
    const wanted = this.options.domains;
    const read = wanted ? domainIds.filter((id) => wanted.includes(id)) : domainIds;
    return (await Promise.all(read.map((id) => this.listDomain(client, region, id)))).flat();
  }

  private async listDomain(client: SageMakerClient, region: string, domainId: string): Promise<GpuInstance[]> {
    const apps: (AppDetails & { instanceType: string })[] = [];
    try {
      for await (const page of paginateListApps({ client, pageSize: APPS_PAGE }, { DomainIdEquals: domainId }))
        for (const app of page.Apps ?? []) {
          const instanceType = app.ResourceSpec?.InstanceType;
          if (app.Status === 'InService' && isGpuType(instanceType)) apps.push({ ...app, instanceType });
        }
    } catch (error) {
      throw explainStudioError(error, 'sagemaker:ListApps', region);
    }
    if (apps.length === 0) return [];
    const domain = await readOptional(
      () => client.send(new DescribeDomainCommand({ DomainId: domainId })),
      'sagemaker:DescribeDomain',
      region,
    );
    const spaces = new Map<string, Promise<number | undefined | Unreadable>>();
    const spaceMinutes = (spaceName: string, appType: string) => {
      const key = `${spaceName}\n${appType}`;
      if (!spaces.has(key)) spaces.set(key, this.spaceMinutes(client, region, domainId, spaceName, appType));
      return spaces.get(key)!;
    };
    const context: StudioAppContext = {
      region,
      catalog: this.catalog,
      tagKeys: this.options.tagKeys,
      resolveTeam: this.options.resolveTeam,
    };
    const records = await Promise.all(
      apps.map(async (listed): Promise<GpuInstance[]> => {
        const app = await client
          .send(
            new DescribeAppCommand({
              DomainId: domainId,
              AppType: listed.AppType,
              AppName: listed.AppName,
              ...(listed.SpaceName ? { SpaceName: listed.SpaceName } : { UserProfileName: listed.UserProfileName }),
            }),
          )
          .catch((error: unknown) => Promise.reject(explainStudioError(error, 'sagemaker:DescribeApp', region)));
        const arn = app.AppArn;
        if (!arn) return [];
        const ref = studioAppRefOf(arn);
        const tags = await studioTags(client, region, arn, ref && listed.SpaceName ? spaceArnOf(ref) : undefined);
        const appType = listed.AppType ?? 'unknown';
        const notebook = studioIdleShutdown(
          appType,
          'denied' in domain ? domain : domainIdleSettings(domain, appType),
          listed.SpaceName ? await spaceMinutes(listed.SpaceName, appType) : undefined,
        );
        return [studioAppOf({ ...listed, ...app, AppArn: arn }, listed.instanceType, tags, notebook, context)];
      }),
    );
    return records.flat();
  }

  /** A space's own idle timeout for the app type; undefined where it sets none. */
  private async spaceMinutes(
    client: SageMakerClient,
    region: string,
    domainId: string,
    spaceName: string,
    appType: string,
  ): Promise<number | undefined | Unreadable> {
    const space = await readOptional(
      () => client.send(new DescribeSpaceCommand({ DomainId: domainId, SpaceName: spaceName })),
      'sagemaker:DescribeSpace',
      region,
    );
    if ('denied' in space) return space;
    const settings = appType === 'CodeEditor' ? space.SpaceSettings?.CodeEditorAppSettings : space.SpaceSettings?.JupyterLabAppSettings;
    return settings?.AppLifecycleManagement?.IdleSettings?.IdleTimeoutInMinutes;
  }
}

/** The domain's idle shutdown for an app type: its users' default, else its spaces' default. */
function domainIdleSettings(domain: DescribeDomainResponse, appType: string): IdleSettings | undefined {
  const user = domain.DefaultUserSettings;
  const space = domain.DefaultSpaceSettings;
  const settings = appType === 'CodeEditor' ? user?.CodeEditorAppSettings : (user?.JupyterLabAppSettings ?? space?.JupyterLabAppSettings);
  return settings?.AppLifecycleManagement?.IdleSettings;
}
