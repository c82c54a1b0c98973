import type { Session } from './session.js';

/** The columns every table of JSON findings shares: gpu_findings and sweep_findings. */
interface TrackedRow {
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

function toTracked<T extends Tracked>(row: TrackedRow): T {
  return {
    ...(JSON.parse(row.body) as Omit<T, keyof Tracked>),
    state: row.state,
    firstSeen: new Date(row.first_seen),
    lastSeen: new Date(row.last_seen),
    resolvedAt: row.resolved_at ? new Date(row.resolved_at) : null,
  } as T;
}

/** Reads findings stored as JSON bodies with their open/resolved state; `table` is one of ours, never user input. */
export class SqlTrackedFindings<T extends Tracked> {
  constructor(
    private readonly db: Session,
    private readonly table: 'gpu_findings' | 'sweep_findings',
  ) {}

  async listOpen(): Promise<T[]> {
    const rows = await this.db.rows<TrackedRow>(`SELECT * FROM ${this.table} WHERE state = 'open' ORDER BY ${this.db.dialect.bytes('id')}`);
    return rows.map((r) => toTracked<T>(r));
  }

  async get(id: string): Promise<T | null> {
    const row = await this.db.one<TrackedRow>(`SELECT * FROM ${this.table} WHERE id = ?`, [id]);
    return row ? toTracked<T>(row) : null;
  }
}
