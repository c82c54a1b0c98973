import type { Acknowledgement } from '../domain/acknowledgement.js';
import type { Session } from './session.js';

export class SqlAcknowledgementStore {
  constructor(private readonly db: Session) {}

  /** The first acknowledgement wins; a second click returns the first, so it can say who was first. */
  async acknowledge(ack: Acknowledgement): Promise<{ ack: Acknowledgement; first: boolean }> {
    const inserted = await this.db.run(
      'INSERT INTO acknowledgements (finding_id, by_user, at) VALUES (?, ?, ?) ON CONFLICT (finding_id) DO NOTHING',
      [ack.findingId, ack.byUser, ack.at.toISOString()],
    );
    const stored = await this.get(ack.findingId);
    return { ack: stored ?? ack, first: inserted === 1 };
  }

  async get(findingId: string): Promise<Acknowledgement | null> {
    const row = await this.db.one<{ findingId: string; byUser: string; at: string }>(
      'SELECT finding_id AS "findingId", by_user AS "byUser", at FROM acknowledgements WHERE finding_id = ?',
      [findingId],
    );
    return row ? { ...row, at: new Date(row.at) } : null;
  }
}
