import type { ProviderAnomaly, ProviderFeedback } from '../domain/provider-anomaly.js';

/**
 * A cloud's own anomaly detection for one team (AWS Cost Anomaly Detection: one monitor): the
 * anomalies it found, read by the anomaly check, and the team's answer sent back as feedback.
 */
export interface AnomalySource {
  /** The id its anomalies are recorded under, e.g. `aws:anomalies:<monitor>`. */
  readonly id: string;
  /** How the messages name it: "AWS Cost Anomaly Detection". */
  readonly label: string;
  /** The team whose anomalies these are. */
  readonly team: string;
  /** The anomalies that began on [start, end) (YYYY-MM-DD). */
  list(start: string, end: string): Promise<ProviderAnomaly[]>;
  /** Sends the team's answer on one anomaly; absent where the provider's API takes none (Google Cloud's). */
  feedback?(anomalyId: string, feedback: ProviderFeedback): Promise<void>;
}
