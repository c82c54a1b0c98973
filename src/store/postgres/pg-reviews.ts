import type { ReviewAnswer, ReviewLine, ReviewRecord, TrackedReviewLine } from '../../domain/review.js';
import type { OutboxDraft } from '../outbox-records.js';
import { toLine, toReview, type LineRow, type ReviewRow, type ReviewStore } from '../reviews.js';
import type { PgDb } from './pg-db.js';
import { enqueuePgOutbox } from './pg-outbox.js';
import type { PgSession } from './pg-session.js';

/**
 * Reviews and their lines (reviews.ts). Two replicas opening the same review meet on its key: the
 * second waits for the first to commit and finds the review there; reminders and summaries are
 * marked by one conditional UPDATE, so exactly one replica queues them.
 */
export class PgReviewStore implements ReviewStore {
  constructor(private readonly db: PgDb) {}

  async open(
    review: Omit<ReviewRecord, 'remindedAt' | 'closedAt'>,
    lines: readonly ReviewLine[],
    draftsFor: (lines: TrackedReviewLine[], record: ReviewRecord) => OutboxDraft[],
    now: Date,
  ) {
    return this.db.transaction(async (tx) => {
      const created =
        (await tx.run('INSERT INTO reviews (team, month, body, created_at, closes_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
          review.team,
          review.month,
          JSON.stringify(review.figures),
          review.createdAt.toISOString(),
          review.closesAt.toISOString(),
        ])) === 1;
      if (created) {
        for (const [index, line] of lines.entries())
          await tx.run('INSERT INTO review_lines (team, month, rank, body) VALUES ($1, $2, $3, $4)', [
            review.team,
            review.month,
            index + 1,
            JSON.stringify(line),
          ]);
      }
      // A review posted before keeps its figures and lines: posting again only re-queues what is missing.
      const stored = await linesOf(tx, review.team, review.month);
      const record = (await recordOf(tx, review.team, review.month))!;
      const queued = await enqueuePgOutbox(tx, draftsFor(stored, record), now);
      return { created, record, lines: stored, queued };
    });
  }

  get(team: string, month: string): Promise<ReviewRecord | null> {
    return recordOf(this.db, team, month);
  }

  async line(id: number): Promise<TrackedReviewLine | null> {
    const row = await this.db.one<LineRow>('SELECT * FROM review_lines WHERE id = $1', [id]);
    return row ? toLine(row) : null;
  }

  lines(team: string, month: string): Promise<TrackedReviewLine[]> {
    return linesOf(this.db, team, month);
  }

  async listOpen(): Promise<ReviewRecord[]> {
    return (await this.db.rows<ReviewRow>('SELECT * FROM reviews WHERE closed_at IS NULL ORDER BY team COLLATE "C", month')).map(toReview);
  }

  async answer(id: number, answer: ReviewAnswer, byUser: string, at: Date) {
    const changed =
      (await this.db.run(
        'UPDATE review_lines SET answer = $1, answered_by = $2, answered_at = $3 WHERE id = $4 AND answer IS DISTINCT FROM $1',
        [answer, byUser, at.toISOString(), id],
      )) === 1;
    return { changed, line: (await this.line(id))! };
  }

  async setOwner(id: number, owner: string, byUser: string, at: Date) {
    const changed =
      (await this.db.run('UPDATE review_lines SET owner = $1, owner_by = $2, owner_at = $3 WHERE id = $4 AND owner IS DISTINCT FROM $1', [
        owner,
        byUser,
        at.toISOString(),
        id,
      ])) === 1;
    return { changed, line: (await this.line(id))! };
  }

  async remind(team: string, month: string, lineIds: readonly number[], drafts: OutboxDraft[], now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const first =
        (await tx.run('UPDATE reviews SET reminded_at = $1 WHERE team = $2 AND month = $3 AND reminded_at IS NULL', [
          now.toISOString(),
          team,
          month,
        ])) === 1;
      if (!first) return false;
      await tx.run('UPDATE review_lines SET reminded_at = $1 WHERE id = ANY($2::bigint[])', [now.toISOString(), lineIds]);
      await enqueuePgOutbox(tx, drafts, now);
      return true;
    });
  }

  async close(team: string, month: string, drafts: OutboxDraft[], now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const first =
        (await tx.run('UPDATE reviews SET closed_at = $1 WHERE team = $2 AND month = $3 AND closed_at IS NULL', [
          now.toISOString(),
          team,
          month,
        ])) === 1;
      if (first) await enqueuePgOutbox(tx, drafts, now);
      return first;
    });
  }
}

async function recordOf(session: PgSession, team: string, month: string): Promise<ReviewRecord | null> {
  const row = await session.one<ReviewRow>('SELECT * FROM reviews WHERE team = $1 AND month = $2', [team, month]);
  return row ? toReview(row) : null;
}

async function linesOf(session: PgSession, team: string, month: string): Promise<TrackedReviewLine[]> {
  return (await session.rows<LineRow>('SELECT * FROM review_lines WHERE team = $1 AND month = $2 ORDER BY rank', [team, month])).map(
    toLine,
  );
}
