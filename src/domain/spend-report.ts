import type { KubeCostBasis } from './kube-usage.js';
import type { Period } from './period.js';
import type { KubeDimension, SpendDimension } from './spend.js';
import type { SpendBasis, TotalsPart } from './spend-totals.js';

/** The answer to "what did we spend, on what": stable, and the shape of `spend --json`. */
export interface SpendReport {
  period: Period;
  currency: string;
  by: SpendDimension | KubeDimension;
  /** Present for `invoice`: grouped by the billing periods the invoices say, not the charge days. */
  basis?: SpendBasis;
  /** Team ids the report is limited to; absent when it covers the whole organisation. */
  teams?: string[];
  /**
   * One line per key; grouped by resource, each with its name where the bill gives one and its
   * cloud console page where its cloud has one; grouped by namespace or workload, each with its
   * basis: the bill's own pod split, burnrate's estimate, or both.
   */
  rows: { key: string; billed: number; effective: number; name?: string; link?: string; basis?: KubeCostBasis }[];
  total: { billed: number; effective: number };
  /** End of the data (exclusive), across sources; null when nothing was imported yet. */
  dataThrough: string | null;
  /** Caveats a reader must know, e.g. several currencies summed. */
  warnings: string[];
  /** Only when asked for (explain_figure): how the total was computed. */
  explanation?: SpendExplanation;
}

/** How a spend figure was computed: the days read, and each currency and billing period with its rows and rate. */
export interface SpendExplanation {
  /** The days whose rows were read: the period asked for, up to the data's end on the charge basis. */
  read: Period;
  /** Bill rows (daily rows) added up, in every part. */
  rows: number;
  parts: TotalsPart[];
}
