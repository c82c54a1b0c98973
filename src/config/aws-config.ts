import { z } from 'zod';
import { backfillDays, cloudBudgetsSchema } from './cloud-budget-config.js';

/** An IAM role to assume, as its ARN. */
export const roleArn = z.string({ error: 'expected an IAM role ARN' }).regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/, {
  error: 'expected an IAM role ARN such as arn:aws:iam::123456789012:role/burnrate-read',
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
