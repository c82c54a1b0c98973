import type { KubeUsageRow, PoolSample } from '../domain/kube-usage.js';
import type { Period } from '../domain/period.js';

export interface KubeUsageStore {
  /** When the cluster was last sampled; null before the first sample. */
  lastSample(cluster: string): Promise<Date | null>;
  /** Adds a sample's rows and pool figures and moves the cluster's sample time to `at`, together. */
  record(cluster: string, at: Date, rows: readonly KubeUsageRow[], pools: readonly PoolSample[]): Promise<void>;
  /** Every row of the period's days. */
  rows(period: Period): Promise<KubeUsageRow[]>;
  /** Every pool sample taken in the period. */
  poolSamples(period: Period): Promise<PoolSample[]>;
}
