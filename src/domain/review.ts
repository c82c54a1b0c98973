import type { AnomalyFinding } from './anomaly-finding.js';
import type { Recommendation } from './recommendation.js';
import type { TeamWaste, WasteDiagnosis } from './waste.js';
import type { SavingsSummary } from './saving.js';

/** The monthly cost review: what a team's review thread says, and what the team answered. */

export const REVIEW_ANSWERS = ['still-needed', 'right-size', 'spot', 'not-ours'] as const;
export type ReviewAnswer = (typeof REVIEW_ANSWERS)[number];

export const ANSWER_LABELS: Record<ReviewAnswer, string> = {
  'still-needed': 'Still needed',
  'right-size': 'Right-size',
  spot: 'Move to spot',
  'not-ours': 'Not ours',
};

/**
 * The answers that fit a line: an instance (compute) can be right-sized or moved to spot; storage,
 * data transfer or a managed service cannot, so those lines only ask whether it is still needed
 * and whose it is. A line already on spot or under a commitment is not offered spot.
 */
export function answersFor(line: Pick<ReviewLine, 'category' | 'instanceType' | 'pricing'>): ReviewAnswer[] {
  const compute = line.instanceType !== null || line.category === 'Compute';
  if (!compute) return ['still-needed', 'not-ours'];
  const spotPossible = line.pricing !== 'Dynamic' && line.pricing !== 'Committed';
  return REVIEW_ANSWERS.filter((answer) => answer !== 'spot' || spotPossible);
}

/** One of the team's top cost lines of the month. */
export interface ReviewLine {
  /** Resource id, or the service when the bill names no resource. */
  key: string;
  /** What people call it: an instance's Name tag, else the key. */
  label: string;
  resourceId: string | null;
  service: string;
  category: string;
  /** FOCUS PricingCategory: Standard (on demand), Dynamic (spot), Committed. */
  pricing: string | null;
  cost: number;
  instanceType: string | null;
  workload: string | null;
  /** Monthly saving if the line moved to spot, from the price catalog; null when not a priced GPU instance on demand. */
  spotSaving: number | null;
  /**
   * Right-size and spot recommendations for the instance the line bills, as they stood when the
   * review was posted: stored with the line, so its message, its updates and the close summary
   * all show the same evidence and savings.
   */
  recommendations: Recommendation[];
}

export interface UnitCost {
  /** How many experiments, runs or sweeps had cost this month. */
  count: number;
  total: number;
  /** total / count. */
  average: number;
  /** The most expensive one. */
  top: { key: string; cost: number } | null;
}

export interface ShowbackLine {
  team: string;
  teamName: string;
  direct: number;
  /** The team's share of shared costs (tax, support), in proportion to its spend with the same provider. */
  shared: number;
  /** The unused commitment charged to the team (as its owner, or for what the commitment covered of its spend). */
  commitment?: number;
  total: number;
  /** Share of the organisation's spend, 0–1. */
  share: number;
  budget: number | null;
}

/** The figures of a team's review of a month; stored with the review as posted. */
export interface ReviewFigures {
  team: string;
  teamName: string;
  month: string;
  currency: string;
  spend: number;
  budget: number | null;
  previousMonth: string;
  previousSpend: number;
  /** spend / previousSpend - 1; null when the month before had no spend. */
  change: number | null;
  forecast: { month: string; amount: number; method: string } | null;
  idle: { cost: number; share: number; gpuHours: number; basis: string } | null;
  /** The organisation's spend with no ownership tag (or one naming no team) this month. */
  untagged: { amount: number; share: number };
  units: { experiment: UnitCost; run: UnitCost; sweep: UnitCost; perThousandPredictions: { predictions: number; cost: number } | null };
  showback: ShowbackLine | null;
  dataThrough: string | null;
  /** The month's waste diagnosis of the team; null without GPU metrics; absent in reviews posted before it existed. */
  waste?: ReviewWaste | null;
  /** What actions taken through burnrate saved the team in the month (the savings ledger); absent in older reviews. */
  savings?: SavingsSummary;
  /** The spend anomalies that began in the month, as the anomaly check recorded them; absent in older reviews. */
  anomalies?: ReviewAnomaly[];
}

/** A spend anomaly as a review shows it: when it began, how far above usual, what moved, how it was answered. */
export type ReviewAnomaly = Pick<AnomalyFinding, 'id' | 'started' | 'excess' | 'currency' | 'drivers' | 'answer'>;

/** A team's row of the month's waste diagnosis, with what the report around it says. */
export interface ReviewWaste extends Pick<WasteDiagnosis, 'period' | 'currency' | 'notes' | 'unavailable'> {
  row: TeamWaste;
}

/** A review line as stored, with the team's answer. */
export interface TrackedReviewLine extends ReviewLine {
  id: number;
  team: string;
  month: string;
  rank: number;
  answer: ReviewAnswer | null;
  answeredBy: string | null;
  answeredAt: Date | null;
  owner: string | null;
  ownerBy: string | null;
  ownerAt: Date | null;
  remindedAt: Date | null;
}

export interface ReviewRecord {
  team: string;
  month: string;
  figures: ReviewFigures;
  createdAt: Date;
  closesAt: Date;
  remindedAt: Date | null;
  closedAt: Date | null;
}
