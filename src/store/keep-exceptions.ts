import type { KeepException } from '../domain/keep-exception.js';
import type { Session } from './session.js';

export class SqlKeepExceptionStore {
  constructor(private readonly db: Session) {}

  /** Sets (or moves) the instance's exception. */
  async set(keep: KeepException): Promise<void> {
    await this.db.run(
      `INSERT INTO keep_exceptions (instance_id, until, by_user, at) VALUES (?, ?, ?, ?)
       ON CONFLICT (instance_id) DO UPDATE SET until = excluded.until, by_user = excluded.by_user, at = excluded.at`,
      [keep.instanceId, keep.until.toISOString(), keep.byUser, keep.at.toISOString()],
    );
  }

  async active(now: Date): Promise<KeepException[]> {
    const rows = await this.db.rows<{ instanceId: string; until: string; byUser: string; at: string }>(
      `SELECT instance_id AS "instanceId", until, by_user AS "byUser", at FROM keep_exceptions WHERE until > ? ORDER BY ${this.db.dialect.bytes('instance_id')}`,
      [now.toISOString()],
    );
    return rows.map((r) => ({ ...r, until: new Date(r.until), at: new Date(r.at) }));
  }
}
