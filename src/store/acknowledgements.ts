import type Database from 'better-sqlite3';
import type { Acknowledgement, AcknowledgementStore } from './store.js';

export class SqliteAcknowledgementStore implements AcknowledgementStore {
  constructor(private readonly db: Database.Database) {}

  /** The first acknowledgement wins; a second click returns the first, so it can say who was first. */
  async acknowledge(ack: Acknowledgement): Promise<{ ack: Acknowledgement; first: boolean }> {
    const inserted = this.db
      .prepare('INSERT INTO acknowledgements (finding_id, by_user, at) VALUES (?, ?, ?) ON CONFLICT (finding_id) DO NOTHING')
      .run(ack.findingId, ack.byUser, ack.at.toISOString()).changes;
    const stored = await this.get(ack.findingId);
    return { ack: stored ?? ack, first: inserted === 1 };
  }

  async get(findingId: string): Promise<Acknowledgement | null> {
    const row = this.db.prepare('SELECT finding_id AS findingId, by_user AS byUser, at FROM acknowledgements WHERE finding_id = ?').get(findingId) as
      | { findingId: string; byUser: string; at: string }
      | undefined;
    return row ? { ...row, at: new Date(row.at) } : null;
  }
}
