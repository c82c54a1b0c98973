import type Database from 'better-sqlite3';
import type { KeepException } from '../../domain/keep-exception.js';
import type { KeepExceptionStore } from '../keep-exceptions.js';

interface KeepRow {
  instanceId: string;
  until: string;
  byUser: string;
  at: string;
}

export class SqliteKeepExceptionStore implements KeepExceptionStore {
  private readonly setStatement: Database.Statement<[string, string, string, string]>;
  private readonly activeStatement: Database.Statement<[string], KeepRow>;

  constructor(db: Database.Database) {
    this.setStatement = db.prepare(
      'INSERT INTO keep_exceptions (instance_id, until, by_user, at) VALUES (?, ?, ?, ?) ON CONFLICT (instance_id) DO UPDATE SET until = excluded.until, by_user = excluded.by_user, at = excluded.at',
    );
    this.activeStatement = db.prepare(
      'SELECT instance_id AS instanceId, until, by_user AS byUser, at FROM keep_exceptions WHERE until > ? ORDER BY instance_id',
    );
  }

  async set(keep: KeepException): Promise<void> {
    this.setStatement.run(keep.instanceId, keep.until.toISOString(), keep.byUser, keep.at.toISOString());
  }

  async active(now: Date): Promise<KeepException[]> {
    return this.activeStatement.all(now.toISOString()).map((r) => ({ ...r, until: new Date(r.until), at: new Date(r.at) }));
  }
}
