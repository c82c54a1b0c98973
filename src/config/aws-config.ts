import { z } from 'zod';
import { backfillDays, cloudBudgetsSchema } from './cloud-budget-config.js';

/** An IAM role to assume, as its ARN. */
export const roleArn = z.string({ error: 'expected an IAM role ARN' }).regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/, {
  error: 'expected an IAM role ARN such as arn:aws:iam::123456789012:role/burnrate-read',
});

/** A Cost Anomaly Detection monitor, as its ARN (the console's monitor page, or aws ce get-anomaly-monitors). */
const monitorArn = z
  .string({ error: 'expected a Cost Anomaly Detection monitor ARN' })
  .regex(/^arn:aws[a-z-]*:ce::\d{12}:anomalymonitor\/[\w-]+$/, {
    error:
      'expected a Cost Anomaly Detection monitor ARN such as arn:aws:ce::123456789012:anomalymonitor/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
  });

/** Live AWS spend (Cost Explorer) and budgets (AWS Budgets). Credentials come from the SDK's default chain. */
export const awsSourceSchema = z.strictObject({
  type: z.literal('aws'),
  id: z.string().trim().min(1, { error: 'expected a source id' }).optional(),
  /** Cost allocation tag that names the owner (no "user:" prefix); default: the first ownership tag key. */
  tagKey: z.string().trim().min(1, { error: 'expected a tag key such as team' }).optional(),
  backfillDays,
  /** Roles to assume, one per account or organisation to read; none: the default credentials' account. */
  roleArns: z.array(roleArn, { error: 'expected a list of IAM role ARNs' }).default([]),
  /** Attempts per API call, throttling and 5xx retries included. */
  maxAttempts: z.number().int().min(1).max(10).default(4),
  /** AWS Cost Anomaly Detection: each monitor's anomalies shown to its team, answers sent back as feedback. */
  anomalies: z
    .strictObject({
      monitors: z
        .array(
          z.strictObject({
            arn: monitorArn,
            team: z.string({ error: 'expected a team id' }).trim().min(1, { error: 'expected a team id' }),
          }),
          {
            error: 'expected a list of monitors, e.g. [{ arn: arn:aws:ce::123456789012:anomalymonitor/…, team: llm-training }]',
          },
        )
        .min(1, { error: 'expected at least one monitor: { arn: <monitor ARN>, team: <team id> }' }),
    })
    .optional(),
  budgets: z
    .strictObject({
      ...cloudBudgetsSchema.shape,
      /** The account whose budgets are read with the default credentials; accounts of roleArns are read too. */
      accountId: z
        .string({ error: 'expected a 12-digit AWS account id in quotes' })
        .regex(/^\d{12}$/, { error: 'expected a 12-digit AWS account id in quotes, e.g. "123456789012"' })
        .optional(),
    })
    .optional(),
});

export type AwsSourceConfig = z.output<typeof awsSourceSchema>;
