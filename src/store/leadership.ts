/**
 * Which process runs the schedule. On Postgres one replica at a time holds it (an advisory lock on
 * a connection of its own); an embedded SQLite store has one process, which always leads. Either
 * way each job's occurrence is also claimed as a row (ClaimStore), so a leader that changes at the
 * wrong moment cannot run an occurrence twice.
 */
export interface Leadership {
  isLeader(): boolean;
  /** Stops competing and gives the lead up, so another replica takes it at once. */
  stop(): Promise<void>;
}

export interface LeadershipOptions {
  /** How often a follower asks for the lead, and the leader checks it still holds it. */
  intervalMs?: number;
  onChange?: (leader: boolean) => void;
}

/** The lead of the only process: held from the start until it stops. */
export function soleLeadership(onChange?: (leader: boolean) => void): Leadership {
  let leading = true;
  onChange?.(true);
  return {
    isLeader: () => leading,
    stop: async () => {
      leading = false;
      onChange?.(false);
    },
  };
}
