import type { Logger } from 'pino';
import type { InstanceActionPort } from './ports/instance-port.js';
import type { SpotPorts } from './ports/spot-port.js';
import type { WorkloadPort } from './ports/workload-port.js';
import type { ClusterRead } from './ports/cluster-read.js';
import type { InventoryRead } from './domain/inventory-read.js';
import type { GpuMetricsSource } from './ports/gpu-metrics-source.js';
import type { Config } from './config/schema.js';
import type { ChatPort } from './ports/chat-port.js';
import type { PeopleDirectory } from './ports/people-directory.js';
import type { Actor } from './ports/interaction.js';
import type { AppliedBudgetChange } from './domain/budget-change.js';
import type { AnomalySource } from './ports/anomaly-source.js';
import type { BudgetSource } from './ports/budget-source.js';
import type { SpendSource } from './ports/spend-source.js';
import type { Store } from './store/store.js';

/**
 * Everything the product needs, built once in main.ts and passed down. No module singletons:
 * tests build their own Deps from real parts (a :memory: store, fake chat transports).
 */
export interface Deps {
  config: Config;
  store: Store;
  sources: SpendSource[];
  /** Budgets defined in the clouds' own budget services (AWS Budgets, Google Cloud budgets). */
  budgetSources?: BudgetSource[];
  /** The clouds' own anomaly detection (AWS Cost Anomaly Detection), read by the anomaly check and answered from its buttons. */
  anomalySources?: AnomalySource[];
  chat: ChatPort[];
  clock: () => Date;
  log: Logger;
  /** GPU metrics, inventory and instance actions; absent when no GPU source is configured (the idle check then says so). */
  gpu?: GpuDeps;
  /**
   * Where a budget change made here is told: absent, at once (announceBudgetChange); in an answer
   * worker, handed back to the main thread, which has the chat ports and the delivery.
   */
  budgetChanged?: (actor: Actor, change: AppliedBudgetChange) => void;
  /** People directories beside the chat ports' (an answer worker's copy of the main thread's groups). */
  people?: readonly PeopleDirectory[];
  /** The process's one outbox delivery (serve); jobs wake it after queueing. Absent: they deliver themselves. */
  delivery?: { wake(): Promise<void> };
}

export interface GpuDeps {
  metrics: GpuMetricsSource[];
  /** The GPU machines of every source that answered, and the sources that did not (their machines unknown, not gone). */
  inventory: () => Promise<InventoryRead>;
  instances: InstanceActionPort;
  /** Launch-template changes for spot migrations, per instance's source and region; absent where no provider supports them. */
  spot?: SpotPorts;
  /** Resume and Keep on Kubernetes workloads (Stop goes through `instances`); absent without a kubernetes inventory. */
  workloads?: WorkloadPort;
  /** The configured clusters as read now, for their usage samples; absent without a kubernetes inventory. */
  clusters?: () => Promise<ClusterRead[]>;
}
