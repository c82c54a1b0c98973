import { z } from 'zod';
import { roleArn } from './aws-config.js';
import { backfillDays } from './cloud-budget-config.js';

/**
 * Glue database and table names as Athena stores them: lower-case letters, digits and underscores.
 * Nothing else reaches the SQL, so a name can never close its quotes.
 */
const GLUE_NAME = /^[a-z0-9_]{1,255}$/;

const glueName = (what: string, example: string) =>
  z
    .string({ error: `expected the ${what} name, e.g. ${example}` })
    .regex(GLUE_NAME, { error: `expected the ${what} name in lower-case letters, digits and underscores, e.g. ${example}` });

/** Live AWS spend from an AWS Data Exports table (FOCUS 1.2 or CUR 2.0) queried in Amazon Athena. Credentials: the SDK's default chain. */
export const athenaSourceSchema = z
  .strictObject({
    type: z.literal('athena'),
    id: z.string().trim().min(1, { error: 'expected a source id' }).optional(),
    /** The Glue database and table of the export. */
    database: glueName('Glue database', 'billing'),
    table: glueName('Glue table', 'focus_export'),
    /** Which export the table holds: FOCUS 1.2 (with AWS columns) or CUR 2.0 column names. */
    format: z.enum(['focus', 'cur2'], { error: 'expected focus (FOCUS 1.2) or cur2 (CUR 2.0)' }),
    workgroup: z
      .string({ error: 'expected an Athena workgroup name' })
      .regex(/^[A-Za-z0-9._-]{1,128}$/, { error: 'expected an Athena workgroup name such as primary' })
      .default('primary'),
    /** Where Athena writes the query results; optional when the workgroup sets its own. */
    outputLocation: z
      .string({ error: 'expected an s3:// location' })
      .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/\S*)?$/, {
        error: 'expected an s3:// location, e.g. s3://acme-athena-results/burnrate/',
      })
      .optional(),
    region: z
      .string({ error: 'expected the AWS region of the table, e.g. us-east-1' })
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, { error: 'expected an AWS region such as us-east-1' }),
    catalog: z
      .string({ error: 'expected a data catalog name' })
      .regex(/^[A-Za-z0-9_-]{1,256}$/, { error: 'expected a data catalog name such as AwsDataCatalog' })
      .default('AwsDataCatalog'),
    /** The ownership tag as AWS's FOCUS export spells it (user:team); default: ownership.tagKeys. */
    tagKey: z.string().trim().min(1, { error: 'expected a tag key such as user:team' }).optional(),
    /** Group by resource id too (the default), or only by service, account and owner: far fewer rows for very large estates. */
    resources: z.boolean({ error: 'expected true or false' }).default(true),
    backfillDays,
    /** A query seen scanning more than this is stopped; a workgroup's per-query cutoff is the hard guarantee. */
    maxGigabytesScanned: z.number({ error: 'expected a number of GB' }).positive({ error: 'expected a number of GB above 0' }).default(200),
    /** A role to assume for the queries; none: the default credentials. */
    roleArn: roleArn.optional(),
    /** Attempts per API call, throttling and 5xx retries included. */
    maxAttempts: z.number().int().min(1).max(10).default(4),
    /**
     * Read the bill's own split of EKS nodes over their pods (AWS split cost allocation data) too: a CUR 2.0
     * table whose export includes split cost allocation data. One more query per refresh, over the same partitions.
     */
    podSplit: z.boolean({ error: 'expected true or false' }).optional(),
  })
  .refine((s) => !s.podSplit || s.format === 'cur2', {
    error:
      'podSplit reads CUR 2.0 split cost allocation columns: set format: cur2, or leave podSplit out (FOCUS exports carry no pod split)',
    path: ['podSplit'],
  });

export type AthenaSourceConfig = z.output<typeof athenaSourceSchema>;
