import type { ProviderRootCause } from './provider-anomaly.js';
import { isExtensionDimension, type ExtensionDimension } from './spend.js';

/**
 * What a day's spend is broken down by to say why it moved: the bill's own columns (service,
 * resource, sub-account, region, the provider columns a FOCUS source keeps) and the Kubernetes GPU
 * nodes' split by namespace and workload; 'team' is the team's day as a whole.
 */
export type AnomalyDimension = 'service' | 'resource' | 'account' | 'region' | 'namespace' | 'workload' | ExtensionDimension | 'team';

/** How a message names a dimension: "region", "usage type" for x_UsageType. */
export function dimensionName(dimension: AnomalyDimension): string {
  if (!isExtensionDimension(dimension)) return dimension;
  return dimension
    .slice(2)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
}

/** One thing that moved: its spend on the anomalous day beside its usual day, in the team's currency. */
export interface AnomalyDriver {
  dimension: AnomalyDimension;
  key: string;
  amount: number;
  /** Its average day over the days before the anomaly. */
  usual: number;
  /** amount − usual. */
  delta: number;
  /** delta as a share of the team's excess (0..1, may pass 1 when other lines fell). */
  share: number;
}

/** An open finding of another check on a resource that moved. */
export interface AnomalyMatch {
  kind: 'idle' | 'sweep';
  findingId: string;
  /** "sweep lr-warmup", "idle instance trainer-1". */
  label: string;
}

/** How the team answered an anomaly in chat: Expected teaches the check to accept that level for its driver. */
export interface AnomalyAnswer {
  verdict: 'expected' | 'not-expected';
  by: string;
  at: string;
  reason?: string;
  /** What Expected accepts: the driver's rise (or the team's excess where nothing named one), per day. */
  accepted?: { dimension: AnomalyDimension; key: string; delta: number };
}

/**
 * A cloud's own anomaly (AWS Cost Anomaly Detection) as an anomaly shows it: alone, or on burnrate's
 * anomaly of the same team whose days it overlaps. Amounts in the finding's currency.
 */
export interface ProviderAnomalyNote {
  /** The anomaly source it came from (its feedback goes back through it). */
  source: string;
  /** "AWS Cost Anomaly Detection". */
  label: string;
  id: string;
  start: string;
  end: string | null;
  /** Spend above the provider's expected value over the anomaly, what was spent and what it expected. */
  impact: number;
  actual: number | null;
  expected: number | null;
  rootCauses: ProviderRootCause[];
  /** The provider's API takes no answer (Google Cloud's): an answer stays in burnrate. */
  noFeedback?: true;
}

/** An hourly run as its anomaly shows it: from which hour, through which, and its cost a day at the latest hour's rate. */
export interface HourlyRunNote {
  /** ISO times: the run's first hour's start, and the end of its latest complete hour. */
  startedAt: string;
  through: string;
  hours: number;
  perDay: number;
}

/**
 * An anomaly's id: its team and first day, whether the day's bill or the hours found it, so a run
 * found hour by hour and confirmed by the bill is one anomaly and one message.
 */
export function anomalyIdOf(team: string, started: string): string {
  return `anomaly:${team}:${started}`;
}

/** One day of an anomaly: what was spent and what was expected of that day. */
export interface AnomalyDay {
  day: string;
  actual: number;
  expected: number;
}

/**
 * A run of days whose spend is beyond both the amount floor and the robust deviation of its
 * team's anomaly policy. One finding per run: the id names the run's first day, so a rising run
 * is the same finding (its message updated), and a day back to usual resolves it.
 */
export interface AnomalyFinding {
  /** `anomaly:<team>:<first day>`. */
  id: string;
  kind: 'anomaly.spend';
  team: string;
  currency: string;
  /** The run's first day, and the day it is judged on now (its latest). */
  started: string;
  day: string;
  actual: number;
  expected: number;
  /** actual − expected on `day`, new one-off charges included. */
  excess: number;
  /** How many robust deviations (1.4826 × MAD of past days) the excess is. */
  deviations: number;
  /** `day` is the data's last, still filling in: its amount can only grow. */
  provisional: boolean;
  /** Days of history the expected value was drawn from; under the policy's full history the message says so. */
  historyDays: number;
  shortHistory: boolean;
  /** One-off or monthly charges on `day` with no like charge in the month before (counted in the excess). */
  newCharges: number;
  days: AnomalyDay[];
  /** The largest rises, by dimension, largest first. */
  drivers: AnomalyDriver[];
  /** Open idle-GPU and runaway-sweep findings on the resources that moved: what Stop or Stop sweep would end. */
  matches?: AnomalyMatch[];
  /** The cloud's own anomaly on these days; `alone`: burnrate's rules found none, the finding is the provider's. */
  provider?: ProviderAnomalyNote & { alone: boolean };
  /**
   * Found hour by hour on the GPU machines' cost (their metrics say which ran when), before the
   * day's bill: the amounts are over the run's hours, not a day's.
   */
  hourly?: HourlyRunNote;
  answer?: AnomalyAnswer;
}

export interface TrackedAnomalyFinding extends AnomalyFinding {
  state: 'open' | 'resolved';
  firstSeen: Date;
  lastSeen: Date;
  resolvedAt: Date | null;
}
