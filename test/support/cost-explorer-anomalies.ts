import { vi } from 'vitest';
import { FakeAwsBilling, type FakeAwsBillingOptions } from '../fakes/fake-aws-billing.js';
import { stubAwsEnv } from './aws-test-env.js';

// What the tests of AWS Cost Anomaly Detection share: the monitor, an anomaly as Cost Explorer's
// GetAnomalies returns it, and the fake Cost Explorer with the SDK's environment pointed at it.

/** The cost monitor the anomalies come from. */
export const ANOMALY_MONITOR = 'arn:aws:ce::123456789012:anomalymonitor/0a1b2c3d-services';

/** The root cause every anomaly has: SageMaker training in ml-prod, 78% of the impact. */
function sageMakerCause(impact: number) {
  return {
    Service: 'Amazon SageMaker',
    Region: 'us-east-1',
    LinkedAccount: '123456789012',
    LinkedAccountName: 'ml-prod',
    UsageType: 'USE1-ml.p5.48xlarge',
    Impact: { Contribution: impact * 0.78 },
  };
}

/** The rest of the impact, on EC2, for the tests that read every root cause. */
export function ec2Cause(impact: number) {
  return {
    Service: 'Amazon Elastic Compute Cloud - Compute',
    Region: 'us-east-1',
    LinkedAccount: '123456789012',
    UsageType: 'USE1-BoxUsage:g5.12xlarge',
    Impact: { Contribution: impact * 0.22 },
  };
}

/**
 * An anomaly of `impact` dollars beginning on `start` (YYYY-MM-DD) above `expected` dollars of
 * expected spend, its root causes SageMaker's and any `moreCauses`; `extra` sets or overrides fields
 * (AnomalyEndDate, Feedback...).
 */
export function costExplorerAnomaly(
  id: string,
  start: string,
  impact: number,
  { expected, moreCauses = [], extra = {} }: { expected: number; moreCauses?: object[]; extra?: Record<string, unknown> },
) {
  return {
    AnomalyId: id,
    AnomalyStartDate: `${start}T00:00:00Z`,
    DimensionValue: 'Amazon SageMaker',
    MonitorArn: ANOMALY_MONITOR,
    AnomalyScore: { MaxScore: 91.5, CurrentScore: 88.2 },
    Impact: {
      MaxImpact: impact / 2,
      TotalImpact: impact,
      TotalActualSpend: impact + expected,
      TotalExpectedSpend: expected,
      TotalImpactPercentage: (impact / expected) * 100,
    },
    RootCauses: [sageMakerCause(impact), ...moreCauses],
    ...extra,
  };
}

/** The fake Cost Explorer started with `options`, the AWS SDK's environment pointed at it. */
export async function startFakeCostExplorer(options: FakeAwsBillingOptions): Promise<FakeAwsBilling> {
  const fake = await FakeAwsBilling.start(options);
  stubAwsEnv(fake.endpoint);
  return fake;
}

/** The environment as it was, and the fake closed. */
export async function stopFakeCostExplorer(fake: FakeAwsBilling | undefined): Promise<void> {
  vi.unstubAllEnvs();
  await fake?.close();
}
