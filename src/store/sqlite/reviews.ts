import type Database from 'better-sqlite3';
import type { ReviewAnswer, ReviewFigures, ReviewLine, ReviewRecord, TrackedReviewLine } from '../../domain/review.js';
import { enqueueOutbox } from './outbox.js';
import type { OutboxDraft } from '../outbox-records.js';

export interface ReviewStore {
  /**
   * Records a team's review of a month (once: a second call keeps the first figures and lines) and
   * queues what `draftsFor` says for its stored lines, in one transaction.
   */
  open(
    review: Omit<ReviewRecord, 'remindedAt' | 'closedAt'>,
    lines: readonly ReviewLine[],
    draftsFor: (lines: TrackedReviewLine[], record: ReviewRecord) => OutboxDraft[],
    now: Date,
  ): Promise<{ created: boolean; record: ReviewRecord; lines: TrackedReviewLine[]; queued: number }>;
  get(team: string, month: string): Promise<ReviewRecord | null>;
  line(id: number): Promise<TrackedReviewLine | null>;
  lines(team: string, month: string): Promise<TrackedReviewLine[]>;
  /** Reviews whose summary has not been posted yet. */
  listOpen(): Promise<ReviewRecord[]>;
  /** Records an answer; `changed` is false when the line already had this answer. */
  answer(id: number, answer: ReviewAnswer, byUser: string, at: Date): Promise<{ changed: boolean; line: TrackedReviewLine }>;
  setOwner(id: number, owner: string, byUser: string, at: Date): Promise<{ changed: boolean; line: TrackedReviewLine }>;
  /** Marks the review reminded and queues the reminder; false (and nothing queued) when it was reminded before. */
  remind(team: string, month: string, lineIds: readonly number[], drafts: OutboxDraft[], now: Date): Promise<boolean>;
  /** Marks the review closed and queues its summary; false (and nothing queued) when it was closed before. */
  close(team: string, month: string, drafts: OutboxDraft[], now: Date): Promise<boolean>;
}

export interface ReviewRow {
  team: string;
  month: string;
  body: string;
  created_at: string;
  closes_at: string;
  reminded_at: string | null;
  closed_at: string | null;
}

export interface LineRow {
  id: number;
  team: string;
  month: string;
  rank: number;
  body: string;
  answer: ReviewAnswer | null;
  answered_by: string | null;
  answered_at: string | null;
  owner: string | null;
  owner_by: string | null;
  owner_at: string | null;
  reminded_at: string | null;
}

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

const date = (iso: string | null) => (iso ? new Date(iso) : null);

export function toReview(row: ReviewRow): ReviewRecord {
  return {
    team: row.team,
    month: row.month,
    figures: JSON.parse(row.body) as ReviewFigures,
    createdAt: new Date(row.created_at),
    closesAt: new Date(row.closes_at),
    remindedAt: date(row.reminded_at),
    closedAt: date(row.closed_at),
  };
}

export function toLine(row: LineRow): TrackedReviewLine {
  const body = JSON.parse(row.body) as Partial<ReviewLine> & Omit<ReviewLine, 'recommendations'>;
  return {
    ...body,
    // Lines recorded before recommendations were stored with them have none.
    recommendations: body.recommendations ?? [],
    id: row.id,
    team: row.team,
    month: row.month,
    rank: row.rank,
    answer: row.answer,
    answeredBy: row.answered_by,
    answeredAt: date(row.answered_at),
    owner: row.owner,
    ownerBy: row.owner_by,
    ownerAt: date(row.owner_at),
    remindedAt: date(row.reminded_at),
  };
}
