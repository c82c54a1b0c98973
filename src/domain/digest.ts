import type { Period } from './period.js';

export type DigestCadence = 'daily' | 'weekly';

/** What one digest covers: the day or week before, and the one before that to compare with. */
export interface DigestPeriod {
  cadence: DigestCadence;
  period: Period;
  previous: Period;
  /** Names the digest in its dedupe key: one message per team and label, ever. */
  label: string;
}

/** A service whose spend moved between the period and the one before. */
export interface Mover {
  key: string;
  now: number;
  before: number;
  change: number;
}

/** What a team's digest says, in the team's budget currency (idle GPU cost in USD, as priced). */
export interface TeamDigest {
  team: string;
  teamName: string;
  digest: DigestPeriod;
  currency: string;
  spent: number;
  previous: number;
  /** The budget's even pace over the period; null without a budget. */
  pace: number | null;
  monthToDate: { period: Period; spent: number; budget: number | null };
  movers: Mover[];
  idle: { instances: number; perDay: number };
  openAlerts: number;
  openReviewLines: number;
  /** Spend in currencies without an exchange rate, left out of the figures. */
  leftOut: string[];
  dataThrough: string | null;
}
