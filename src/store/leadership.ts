/**
 * Which process runs the schedule. On Postgres one replica at a time holds a lease on the
 * database's clock, renewed every few seconds; an embedded SQLite store has one process, which
 * always leads. Either way each job's occurrence is also claimed as a row (claims.ts), so a leader
 * that changes at the wrong moment cannot run an occurrence twice.
 */
export interface Leadership {
  /** Whether this process leads now, without asking the database (false once its lease may have run out). */
  isLeader(): boolean;
  /**
   * Renews the lease now and says whether this process still leads: asked before every job, so a
   * leader that was frozen (a stopped process, a paused VM, a long GC) and lost its lease meanwhile
   * runs nothing when it wakes.
   */
  confirm(): Promise<boolean>;
  /** Stops competing and gives the lead up, so another replica takes it at once. */
  stop(): Promise<void>;
}

export interface LeadershipOptions {
  /** How often the leader renews its lease and a follower asks for it (2 s by default). */
  intervalMs?: number;
  /** How long a lease lasts unrenewed before another replica takes over (5 intervals by default). */
  leaseMs?: number;
  onChange?: (leader: boolean) => void;
}

/** The lead of the only process: held from the start until it stops. */
export function soleLeadership(onChange?: (leader: boolean) => void): Leadership {
  let leading = true;
  onChange?.(true);
  return {
    isLeader: () => leading,
    confirm: async () => leading,
    stop: async () => {
      leading = false;
      onChange?.(false);
    },
  };
}
