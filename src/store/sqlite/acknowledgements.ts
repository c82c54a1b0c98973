import type Database from 'better-sqlite3';
import type { Acknowledgement } from '../../domain/acknowledgement.js';
import type { AcknowledgementStore } from '../acknowledgements.js';

export class SqliteAcknowledgementStore implements AcknowledgementStore {
  private readonly insertStatement: Database.Statement<[string, string, string]>;
  private readonly getStatement: Database.Statement<[string], { findingId: string; byUser: string; at: string }>;

  constructor(db: Database.Database) {
    this.insertStatement = db.prepare(
      'INSERT INTO acknowledgements (finding_id, by_user, at) VALUES (?, ?, ?) ON CONFLICT (finding_id) DO NOTHING',
    );
    this.getStatement = db.prepare('SELECT finding_id AS findingId, by_user AS byUser, at FROM acknowledgements WHERE finding_id = ?');
  }

  /** The first acknowledgement wins; a second click returns the first, so it can say who was first. */
  async acknowledge(ack: Acknowledgement): Promise<{ ack: Acknowledgement; first: boolean }> {
    const inserted = this.insertStatement.run(ack.findingId, ack.byUser, ack.at.toISOString()).changes;
    const stored = await this.get(ack.findingId);
    return { ack: stored ?? ack, first: inserted === 1 };
  }

  async get(findingId: string): Promise<Acknowledgement | null> {
    const row = this.getStatement.get(findingId);
    return row ? { ...row, at: new Date(row.at) } : null;
  }
}
