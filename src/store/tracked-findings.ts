/** The columns every table of JSON findings shares: gpu_findings and sweep_findings. */
export interface TrackedRow {
  body: string;
  state: 'open' | 'resolved';
  first_seen: string;
  last_seen: string;
  resolved_at: string | null;
}

export interface Tracked {
  state: 'open' | 'resolved';
  firstSeen: Date;
  lastSeen: Date;
  resolvedAt: Date | null;
}

export function toTracked<T extends Tracked>(row: TrackedRow): T {
  return {
    ...(JSON.parse(row.body) as Omit<T, keyof Tracked>),
    state: row.state,
    firstSeen: new Date(row.first_seen),
    lastSeen: new Date(row.last_seen),
    resolvedAt: row.resolved_at ? new Date(row.resolved_at) : null,
  } as T;
}
