import type { Session } from './session.js';

/** The columns of the one findings table (check_findings) a check's findings are read back from. */
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

/** Reads one check's findings (JSON bodies with their open/resolved state) from the one findings table. */
export class SqlTrackedFindings<T extends Tracked> {
  constructor(
    private readonly db: Session,
    private readonly family: 'gpu' | 'sweep' | 'anomaly',
  ) {}

  /** This family's rows matching `condition` (SQL over check_findings' columns), by id. */
  protected async list(condition: string, params: readonly unknown[]): Promise<T[]> {
    const rows = await this.db.rows<TrackedRow>(
      `SELECT * FROM check_findings WHERE family = ? AND ${condition} ORDER BY ${this.db.dialect.bytes('id')}`,
      [this.family, ...params],
    );
    return rows.map((r) => toTracked<T>(r));
  }

  async listOpen(): Promise<T[]> {
    const rows = await this.db.rows<TrackedRow>(
      `SELECT * FROM check_findings WHERE family = ? AND state = 'open' ORDER BY ${this.db.dialect.bytes('id')}`,
      [this.family],
    );
    return rows.map((r) => toTracked<T>(r));
  }

  async get(id: string): Promise<T | null> {
    const row = await this.db.one<TrackedRow>('SELECT * FROM check_findings WHERE family = ? AND id = ?', [this.family, id]);
    return row ? toTracked<T>(row) : null;
  }
}
