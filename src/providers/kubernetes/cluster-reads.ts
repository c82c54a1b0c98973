import { isBurnrateError } from '../../domain/errors.js';
import type { ClusterInventory } from '../../domain/kubernetes.js';

/** How long a cluster's read (or its failure) serves again before the cluster is asked anew. */
export const REREAD_MS = 30_000;

/** A cluster's inventory as burnrate has it now. */
export interface ClusterState {
  read: ClusterInventory;
  fresh: boolean;
  /** Why it is not fresh: the last attempt's error, and when `read` was taken (null: never, so it is empty). */
  unanswered?: { error: string; lastGoodAt: Date | null };
}

/**
 * The reads of one cluster, shared by everything that asks within REREAD_MS (the idle check and the
 * usage sample of one run ask the API server once). A cluster that stops answering keeps its last
 * good read, marked stale with the error; one that never answered is an empty cluster, marked so,
 * and the check goes on without it instead of failing whole.
 */
export class ClusterReads {
  private last: { read: ClusterInventory; at: number } | null = null;
  private failed: { error: string; at: number } | null = null;

  constructor(
    private readonly cluster: string,
    private readonly readNow: () => Promise<ClusterInventory>,
    private readonly clock: () => number = Date.now,
  ) {}

  async state(): Promise<ClusterState> {
    const now = this.clock();
    if (this.failed && now - this.failed.at < REREAD_MS) return this.stale(this.failed.error);
    if (this.last && !this.failed && now - this.last.at < REREAD_MS) return { read: this.last.read, fresh: true };
    try {
      const read = await this.readNow();
      this.last = { read, at: now };
      this.failed = null;
      return { read, fresh: true };
    } catch (error) {
      // A BurnrateError says what to fix (kube-errors.ts); anything else is a network failure, named as such.
      const text = isBurnrateError(error) ? error.message : `Cluster ${this.cluster} did not answer: ${(error as Error).message}`;
      this.failed = { error: text, at: now };
      return this.stale(text);
    }
  }

  private stale(error: string): ClusterState {
    return {
      read: this.last?.read ?? { cluster: this.cluster, nodes: [], pods: [], namespaces: [], workloadAnnotations: new Map() },
      fresh: false,
      unanswered: { error, lastGoodAt: this.last ? new Date(this.last.at) : null },
    };
  }
}
