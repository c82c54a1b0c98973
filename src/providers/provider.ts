import type { GpuInventorySourceConfig, GpuMetricsSourceConfig } from '../config/gpu-sources-schema.js';
import type { Config, SourceConfig } from '../config/schema.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { ConsoleTarget, InstanceLink } from '../domain/instance-links.js';
import type { StopWording } from '../domain/stop-wording.js';
import type { ClusterInventory, KubeRule } from '../domain/kubernetes.js';
import type { AnomalySource } from '../ports/anomaly-source.js';
import type { BudgetSource } from '../ports/budget-source.js';
import type { ClusterRead } from '../ports/cluster-read.js';
import type { GpuMetricsSource } from '../ports/gpu-metrics-source.js';
import type { InstanceActionPort } from '../ports/instance-port.js';
import type { ActionPortName, PermissionNeed } from '../ports/permission-need.js';
import type { SpendSource } from '../ports/spend-source.js';
import type { SpotMigrationPort } from '../ports/spot-port.js';
import type { WorkloadPort } from '../ports/workload-port.js';
import type { GoogleEndpoint } from './gcp/google-endpoint.js';
import type { InventorySource } from './inventory-source.js';

/** What one `sources` entry of burnrate.yml reads: its spend, and the budgets beside it. */
export interface BuiltSources {
  spend: SpendSource[];
  budgets: BudgetSource[];
  /** The cloud's own anomaly detection, one source per team it reports for (AWS: a monitor). */
  anomalies?: AnomalySource[];
}

/** What a provider's spend and budget sources are built with. */
export interface SourceContext {
  config: Config;
  /** Only where Google's endpoints are (never secrets). */
  env: NodeJS.ProcessEnv;
  /** An auth client for the Google APIs instead of Application Default Credentials (tests, embedding). */
  google?: GoogleEndpoint['authClient'];
}

/**
 * A provider's GPU parts, built from `gpu.metrics` and `gpu.inventory` when a GPU source is first
 * used (they load cloud SDKs: seconds of start-up time the CLI's other verbs never pay).
 */
export interface ProviderGpu {
  /** The metrics source of one `gpu.metrics` entry of this provider's types. */
  metrics?(entry: GpuMetricsSourceConfig): GpuMetricsSource;
  /** Its `gpu.inventory` entries' machines, one source each (configured-gpu.ts reads each on its own). */
  inventories?: readonly InventorySource[];
  /**
   * Its inventory laid over everyone's machines: a cluster lists its workloads and hides the nodes
   * they run on (Kubernetes). Takes the machines as a promise so the two reads run side by side.
   */
  overlay?(machines: Promise<GpuInstance[]>): Promise<GpuInstance[]>;
  /** The port that stops this instance, when it is this provider's (its region's endpoint). */
  portOf?(instance: GpuInstance): InstanceActionPort | undefined;
  /** The port that moves this instance's launch template to spot, when it is this provider's. */
  spotPortOf?(instance: GpuInstance): SpotMigrationPort | undefined;
  /** The spot port a migration was recorded with (its `place`, such as `aws:<region>`). */
  spotPortAt?(place: string): SpotMigrationPort | undefined;
  /** Stop, Resume and Keep of its workloads. */
  workloads?: WorkloadPort;
  /** Each cluster as read now (the last good read where it does not answer). */
  clusters?(): Promise<ClusterRead[]>;
}

/** A simulated cluster a fleet brings: read at once, its workloads acted on in memory. */
export interface FleetCluster {
  inventory(): ClusterInventory;
  metrics: GpuMetricsSource;
  workloads: WorkloadPort;
}

/**
 * The GPU fleet a `sources` entry brings with it, built at once (the demo organisation's machines,
 * and its cluster when the entry asks for one): no `gpu` section needed.
 */
export interface ProviderFleet {
  metrics: GpuMetricsSource[];
  list: GpuInstance[];
  instances: InstanceActionPort;
  spot: SpotMigrationPort;
  cluster?: FleetCluster;
  /** How far back the cluster's usage history reaches. */
  historyDays: number;
}

/**
 * One provider's face: what it offers, declared in one place. The registry (registry.ts) composes
 * the faces; nothing else imports them, and a provider never imports another.
 */
export interface Provider {
  readonly id: string;
  /** The `type`s of burnrate.yml entries it reads; their zod schemas sit in config/ with the rest of the file's. */
  readonly configTypes: {
    readonly sources?: readonly SourceConfig['type'][];
    readonly metrics?: readonly GpuMetricsSourceConfig['type'][];
    readonly inventory?: readonly GpuInventorySourceConfig['type'][];
  };
  /** The cloud permissions its sources and inventories call with (docs/permissions.md). */
  readonly permissions?: readonly PermissionNeed[];
  /**
   * The cloud permissions its action ports call with: a chat button that stops an instance or
   * moves it to spot needs these from the provider the instance belongs to.
   */
  readonly portPermissions?: { readonly [port in ActionPortName]?: readonly string[] };
  /** Its GPU parts include workloads (Stop, Resume, Keep) and cluster reads. */
  readonly workloads?: boolean;
  /** The Kubernetes RBAC rules it reads and acts with (the Helm chart's ClusterRoles). */
  readonly kubeRules?: readonly KubeRule[];
  /** Spend and budget sources of one `sources` entry of its types. */
  sources?(entry: SourceConfig, context: SourceContext): BuiltSources;
  /** The GPU fleet one `sources` entry of its types brings with it. */
  fleet?(entry: SourceConfig, config: Config): ProviderFleet;
  /** Its console's page of a resource of its own (told by the id's shape); undefined for any other resource. */
  consoleLink?(target: ConsoleTarget): InstanceLink | undefined;
  /** Whether a machine is one of its own, told by the id's shape (the rule its console link uses). */
  ownsMachine?(id: string): boolean;
  /** What its Stop does to an instance of its own where that is not a plain stop; undefined otherwise. */
  stopWording?(instanceId: string): StopWording | undefined;
  /** Its GPU parts (metrics, machines, action ports, workloads), loaded when first used. */
  gpu?(config: Config, tokens: ReadonlyMap<string, string>): Promise<ProviderGpu>;
}
