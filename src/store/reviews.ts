import type { ReviewAnswer, ReviewFigures, ReviewLine, ReviewRecord, TrackedReviewLine } from '../domain/review.js';
import type { OutboxDraft } from './outbox-records.js';

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
