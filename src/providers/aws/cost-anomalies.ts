import { CostExplorerClient, GetAnomaliesCommand, ProvideAnomalyFeedbackCommand, type Anomaly } from '@aws-sdk/client-cost-explorer';
import type { ProviderAnomaly, ProviderFeedback } from '../../domain/provider-anomaly.js';
import { COST_EXPLORER_REGION } from './cost-explorer-source.js';
import { explainAwsError } from './aws-errors.js';

/** At most this many anomalies a page (GetAnomalies refuses more than 100). */
const PAGE_SIZE = 100;

/**
 * AWS Cost Anomaly Detection: the anomalies its monitors found over a span of days, with their
 * root causes, and the team's answer sent back as feedback. Cost Explorer's one endpoint
 * (us-east-1); the SDK's own settings (AWS_ENDPOINT_URL, credentials) apply.
 */
export class CostAnomalies {
  private readonly client: CostExplorerClient;
  private readonly monitorArn: string | undefined;

  /** `monitorArn`: one monitor's anomalies; without it, every monitor's. */
  constructor(options: { maxAttempts: number; monitorArn?: string }) {
    this.client = new CostExplorerClient({ region: COST_EXPLORER_REGION, maxAttempts: options.maxAttempts });
    this.monitorArn = options.monitorArn;
  }

  /** The anomalies that began on [start, end) (YYYY-MM-DD), every page. */
  async list(start: string, end: string): Promise<ProviderAnomaly[]> {
    const out: ProviderAnomaly[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new GetAnomaliesCommand({
            DateInterval: { StartDate: start, EndDate: end },
            ...(this.monitorArn ? { MonitorArn: this.monitorArn } : {}),
            MaxResults: PAGE_SIZE,
            NextPageToken: token,
          }),
        );
        out.push(...(page.Anomalies ?? []).map(toProviderAnomaly));
        token = page.NextPageToken;
      } while (token);
    } catch (error) {
      throw explainAwsError(error, { service: 'Cost Anomaly Detection', permission: 'ce:GetAnomalies', account: 'default credentials' });
    }
    return out;
  }

  /** Sends the team's answer as the anomaly's feedback (the last answer sent is the one AWS keeps). */
  async feedback(anomalyId: string, feedback: ProviderFeedback): Promise<void> {
    try {
      await this.client.send(new ProvideAnomalyFeedbackCommand({ AnomalyId: anomalyId, Feedback: feedback }));
    } catch (error) {
      throw explainAwsError(error, {
        service: 'Cost Anomaly Detection',
        permission: 'ce:ProvideAnomalyFeedback',
        account: 'default credentials',
      });
    }
  }
}

/** AWS's anomaly as burnrate shows it (amounts in USD, as Cost Anomaly Detection reports them). */
export function toProviderAnomaly(a: Anomaly): ProviderAnomaly {
  return {
    provider: 'aws',
    id: a.AnomalyId!,
    monitor: a.MonitorArn ?? '',
    start: a.AnomalyStartDate?.slice(0, 10) ?? null,
    end: a.AnomalyEndDate?.slice(0, 10) ?? null,
    impact: a.Impact?.TotalImpact ?? a.Impact?.MaxImpact ?? 0,
    actual: a.Impact?.TotalActualSpend ?? null,
    expected: a.Impact?.TotalExpectedSpend ?? null,
    currency: 'USD',
    score: a.AnomalyScore?.CurrentScore ?? a.AnomalyScore?.MaxScore ?? null,
    rootCauses: (a.RootCauses ?? []).map((c) => ({
      service: c.Service ?? null,
      region: c.Region ?? null,
      account: c.LinkedAccountName ?? c.LinkedAccount ?? null,
      usageType: c.UsageType ?? null,
      contribution: c.Impact?.Contribution ?? null,
    })),
    feedback: (a.Feedback as ProviderAnomaly['feedback']) ?? null,
  };
}
