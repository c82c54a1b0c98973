import type { ReviewAnswer, ReviewFigures, ReviewLine, ReviewRecord, TrackedReviewLine } from '../domain/review.js';
import type { OutboxDraft } from './outbox-records.js';
import { enqueueOutbox } from './outbox-table.js';
import { dateOrNull, type Session } from './session.js';

/** A review's columns under its record's names: its figures and times still text. */
const REVIEW = `team, month, body, created_at AS "createdAt", closes_at AS "closesAt", reminded_at AS "remindedAt", closed_at AS "closedAt"`;
type ReviewRow = Record<'team' | 'month' | 'body' | 'createdAt' | 'closesAt', string> & Record<'remindedAt' | 'closedAt', string | null>;

/** A review line's columns under its record's names: its body and times still text. */
const LINE = `id, team, month, rank, body, answer, answered_by AS "answeredBy", answered_at AS "answeredAt", owner, owner_by AS "ownerBy",
  owner_at AS "ownerAt", reminded_at AS "remindedAt"`;
type LineRow = Pick<TrackedReviewLine, 'id' | 'team' | 'month' | 'rank' | 'answer' | 'answeredBy' | 'owner' | 'ownerBy'> & {
  body: string;
} & Record<'answeredAt' | 'ownerAt' | 'remindedAt', string | null>;

function toReview({ body, ...row }: ReviewRow): ReviewRecord {
  const times = { createdAt: new Date(row.createdAt), closesAt: new Date(row.closesAt) };
  const marks = { remindedAt: dateOrNull(row.remindedAt), closedAt: dateOrNull(row.closedAt) };
  return { ...row, ...times, figures: JSON.parse(body) as ReviewFigures, ...marks };
}

function toLine({ body, ...row }: LineRow): TrackedReviewLine {
  const line = JSON.parse(body) as Partial<ReviewLine> & Omit<ReviewLine, 'recommendations'>;
  // Lines recorded before recommendations were stored with them have none.
  const times = { answeredAt: dateOrNull(row.answeredAt), ownerAt: dateOrNull(row.ownerAt), remindedAt: dateOrNull(row.remindedAt) };
  return { ...line, recommendations: line.recommendations ?? [], ...row, ...times };
}

/**
 * Reviews and their lines (reviews.ts). Two replicas opening the same review meet on its key: the
 * second waits for the first to commit and finds the review there; reminders and summaries are
 * marked by one conditional UPDATE, so exactly one replica queues them.
 */
export class SqlReviewStore {
  constructor(private readonly db: Session) {}

  /**
   * Records a team's review of a month (once: a second call keeps the first figures and lines) and
   * queues what `draftsFor` says for its stored lines, in one transaction.
   */
  async open(
    review: Omit<ReviewRecord, 'remindedAt' | 'closedAt'>,
    lines: readonly ReviewLine[],
    draftsFor: (lines: TrackedReviewLine[], record: ReviewRecord) => OutboxDraft[],
    now: Date,
  ) {
    return this.db.transaction(async (tx) => {
      const created =
        (await tx.run('INSERT INTO reviews (team, month, body, created_at, closes_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [
          review.team,
          review.month,
          JSON.stringify(review.figures),
          review.createdAt.toISOString(),
          review.closesAt.toISOString(),
        ])) === 1;
      if (created) {
        for (const [index, line] of lines.entries())
          await tx.run('INSERT INTO review_lines (team, month, rank, body) VALUES (?, ?, ?, ?)', [
            review.team,
            review.month,
            index + 1,
            JSON.stringify(line),
          ]);
      }
      // A review posted before keeps its figures and lines: posting again only re-queues what is missing.
      const stored = await linesOf(tx, review.team, review.month);
      const record = (await recordOf(tx, review.team, review.month))!;
      const queued = await enqueueOutbox(tx, draftsFor(stored, record), now);
      return { created, record, lines: stored, queued };
    });
  }

  get(team: string, month: string): Promise<ReviewRecord | null> {
    return recordOf(this.db, team, month);
  }

  async line(id: number): Promise<TrackedReviewLine | null> {
    const row = await this.db.one<LineRow>(`SELECT ${LINE} FROM review_lines WHERE id = ?`, [id]);
    return row ? toLine(row) : null;
  }

  lines(team: string, month: string): Promise<TrackedReviewLine[]> {
    return linesOf(this.db, team, month);
  }

  /** Reviews whose summary has not been posted yet. */
  async listOpen(): Promise<ReviewRecord[]> {
    return (
      await this.db.rows<ReviewRow>(
        `SELECT ${REVIEW} FROM reviews WHERE closed_at IS NULL ORDER BY ${this.db.dialect.bytes('team')}, month`,
      )
    ).map(toReview);
  }

  /** Records an answer; `changed` is false when the line already had this answer. */
  async answer(id: number, answer: ReviewAnswer, byUser: string, at: Date) {
    const changed =
      (await this.db.run(
        'UPDATE review_lines SET answer = ?, answered_by = ?, answered_at = ? WHERE id = ? AND answer IS DISTINCT FROM ?',
        [answer, byUser, at.toISOString(), id, answer],
      )) === 1;
    return { changed, line: (await this.line(id))! };
  }

  async setOwner(id: number, owner: string, byUser: string, at: Date) {
    const changed =
      (await this.db.run('UPDATE review_lines SET owner = ?, owner_by = ?, owner_at = ? WHERE id = ? AND owner IS DISTINCT FROM ?', [
        owner,
        byUser,
        at.toISOString(),
        id,
        owner,
      ])) === 1;
    return { changed, line: (await this.line(id))! };
  }

  /** Marks the review reminded and queues the reminder; false (and nothing queued) when it was reminded before. */
  async remind(team: string, month: string, lineIds: readonly number[], drafts: OutboxDraft[], now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const first =
        (await tx.run('UPDATE reviews SET reminded_at = ? WHERE team = ? AND month = ? AND reminded_at IS NULL', [
          now.toISOString(),
          team,
          month,
        ])) === 1;
      if (!first) return false;
      await tx.run(`UPDATE review_lines SET reminded_at = ? WHERE ${tx.dialect.inList('id')}`, [
        now.toISOString(),
        tx.dialect.list(lineIds),
      ]);
      await enqueueOutbox(tx, drafts, now);
      return true;
    });
  }

  /** Marks the review closed and queues its summary; false (and nothing queued) when it was closed before. */
  async close(team: string, month: string, drafts: OutboxDraft[], now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const first =
        (await tx.run('UPDATE reviews SET closed_at = ? WHERE team = ? AND month = ? AND closed_at IS NULL', [
          now.toISOString(),
          team,
          month,
        ])) === 1;
      if (first) await enqueueOutbox(tx, drafts, now);
      return first;
    });
  }
}

async function recordOf(session: Session, team: string, month: string): Promise<ReviewRecord | null> {
  const row = await session.one<ReviewRow>(`SELECT ${REVIEW} FROM reviews WHERE team = ? AND month = ?`, [team, month]);
  return row ? toReview(row) : null;
}

async function linesOf(session: Session, team: string, month: string): Promise<TrackedReviewLine[]> {
  return (await session.rows<LineRow>(`SELECT ${LINE} FROM review_lines WHERE team = ? AND month = ? ORDER BY rank`, [team, month])).map(
    toLine,
  );
}
