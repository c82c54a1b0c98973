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

export const ALWAYS_LEADER: Leadership = {
  isLeader: () => true,
  stop: async () => {},
};
