import type Database from 'better-sqlite3';
import type { ReviewAnswer, ReviewLine, ReviewRecord, TrackedReviewLine } from '../../domain/review.js';
import { enqueueOutbox } from './outbox.js';
import type { OutboxDraft } from '../outbox-records.js';
import { toReview, toLine, type ReviewStore, type ReviewRow, type LineRow } from '../reviews.js';

/** Reviews and their lines. Each write that also sends something queues it in the same transaction. */
export class SqliteReviewStore implements ReviewStore {
  constructor(private readonly db: Database.Database) {}

  async open(
    review: Omit<ReviewRecord, 'remindedAt' | 'closedAt'>,
    lines: readonly ReviewLine[],
    draftsFor: (lines: TrackedReviewLine[], record: ReviewRecord) => OutboxDraft[],
    now: Date,
  ) {
    return this.db.transaction(() => {
      const created =
        this.db
          .prepare('INSERT INTO reviews (team, month, body, created_at, closes_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
          .run(review.team, review.month, JSON.stringify(review.figures), review.createdAt.toISOString(), review.closesAt.toISOString())
          .changes === 1;
      if (created) {
        const insert = this.db.prepare('INSERT INTO review_lines (team, month, rank, body) VALUES (?, ?, ?, ?)');
        lines.forEach((line, index) => insert.run(review.team, review.month, index + 1, JSON.stringify(line)));
      }
      // A review posted before keeps its figures and lines: posting again only re-queues what is missing.
      const stored = this.linesNow(review.team, review.month);
      const record = this.getNow(review.team, review.month)!;
      const queued = enqueueOutbox(this.db, draftsFor(stored, record), now);
      return { created, record, lines: stored, queued };
    })();
  }

  async get(team: string, month: string): Promise<ReviewRecord | null> {
    return this.getNow(team, month);
  }

  async line(id: number): Promise<TrackedReviewLine | null> {
    const row = this.db.prepare('SELECT * FROM review_lines WHERE id = ?').get(id) as LineRow | undefined;
    return row ? toLine(row) : null;
  }

  async lines(team: string, month: string): Promise<TrackedReviewLine[]> {
    return this.linesNow(team, month);
  }

  async listOpen(): Promise<ReviewRecord[]> {
    return (this.db.prepare('SELECT * FROM reviews WHERE closed_at IS NULL ORDER BY team, month').all() as ReviewRow[]).map(toReview);
  }

  async answer(id: number, answer: ReviewAnswer, byUser: string, at: Date) {
    const changed =
      this.db
        .prepare('UPDATE review_lines SET answer = ?, answered_by = ?, answered_at = ? WHERE id = ? AND answer IS NOT ?')
        .run(answer, byUser, at.toISOString(), id, answer).changes === 1;
    return { changed, line: (await this.line(id))! };
  }

  async setOwner(id: number, owner: string, byUser: string, at: Date) {
    const changed =
      this.db
        .prepare('UPDATE review_lines SET owner = ?, owner_by = ?, owner_at = ? WHERE id = ? AND owner IS NOT ?')
        .run(owner, byUser, at.toISOString(), id, owner).changes === 1;
    return { changed, line: (await this.line(id))! };
  }

  async remind(team: string, month: string, lineIds: readonly number[], drafts: OutboxDraft[], now: Date): Promise<boolean> {
    return this.db.transaction(() => {
      // Only the first caller marks the review: a reminder goes out once, whoever runs the step.
      const first =
        this.db
          .prepare('UPDATE reviews SET reminded_at = ? WHERE team = ? AND month = ? AND reminded_at IS NULL')
          .run(now.toISOString(), team, month).changes === 1;
      if (!first) return false;
      const mark = this.db.prepare('UPDATE review_lines SET reminded_at = ? WHERE id = ?');
      for (const id of lineIds) mark.run(now.toISOString(), id);
      enqueueOutbox(this.db, drafts, now);
      return true;
    })();
  }

  async close(team: string, month: string, drafts: OutboxDraft[], now: Date): Promise<boolean> {
    return this.db.transaction(() => {
      const first =
        this.db
          .prepare('UPDATE reviews SET closed_at = ? WHERE team = ? AND month = ? AND closed_at IS NULL')
          .run(now.toISOString(), team, month).changes === 1;
      if (first) enqueueOutbox(this.db, drafts, now);
      return first;
    })();
  }

  private getNow(team: string, month: string): ReviewRecord | null {
    const row = this.db.prepare('SELECT * FROM reviews WHERE team = ? AND month = ?').get(team, month) as ReviewRow | undefined;
    return row ? toReview(row) : null;
  }

  private linesNow(team: string, month: string): TrackedReviewLine[] {
    return (this.db.prepare('SELECT * FROM review_lines WHERE team = ? AND month = ? ORDER BY rank').all(team, month) as LineRow[]).map(
      toLine,
    );
  }
}
