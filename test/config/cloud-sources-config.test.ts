import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../support/config.js';
import { BurnrateError } from '../../src/domain/errors.js';

function problems(text: string): string {
  try {
    parseConfigText(text);
  } catch (error) {
    expect(error).toBeInstanceOf(BurnrateError);
    return (error as BurnrateError).message;
  }
  throw new Error('expected the configuration to be refused');
}

/** The aws, gcp and athena entries of burnrate.example.yml, uncommented: the documented keys must parse as written. */
function exampleCloudSources(): string {
  const example = readFileSync(new URL('../../burnrate.example.yml', import.meta.url), 'utf8');
  const lines = example.split('\n');
  const start = lines.findIndex((l) => l.trim() === '# - type: aws');
  // Up to the end of the sources list: the first top-level key after it.
  const end = lines.findIndex((l, i) => i > start && /^\S/.test(l));
  const block = lines.slice(start, end).filter((l) => /^  # ( |-)/.test(l) && !/^  # [A-Z(]/.test(l));
  // The team the example's anomaly monitor names.
  return `teams: [{ id: llm-training }]\nsources:\n${block.map((l) => l.replace(/^  # /, '  ')).join('\n')}\n`;
}

describe('aws, gcp and athena sources in burnrate.yml', () => {
  it('accepts the documented aws, gcp and athena entries, with defaults', () => {
    const config = parseConfigText(exampleCloudSources());
    const [aws, gcp, athena] = config.sources;
    expect(aws).toMatchObject({
      type: 'aws',
      tagKey: 'team',
      backfillDays: 70,
      maxAttempts: 4,
      roleArns: ['arn:aws:iam::123456789012:role/burnrate-read'],
      budgets: { accountId: '123456789012', alerts: true },
      anomalies: {
        monitors: [{ arn: 'arn:aws:ce::123456789012:anomalymonitor/0a1b2c3d-4e5f-6789-abcd-ef0123456789', team: 'llm-training' }],
      },
    });
    expect(gcp).toMatchObject({
      type: 'gcp',
      project: 'my-billing-project',
      export: 'standard',
      location: 'US',
      maxGigabytesBilled: 200,
      billingAccount: '012345-6789AB-CDEF01',
      budgets: { alerts: true },
    });
    expect(athena).toMatchObject({
      type: 'athena',
      database: 'billing',
      table: 'focus_export',
      format: 'focus',
      region: 'us-east-1',
      workgroup: 'primary',
      outputLocation: 's3://acme-athena-results/burnrate/',
      catalog: 'AwsDataCatalog',
      tagKey: 'user:team',
      maxGigabytesScanned: 200,
      resources: true,
      backfillDays: 70,
      roleArn: 'arn:aws:iam::123456789012:role/burnrate-athena',
    });
    expect(parseConfigText('sources: [{ type: aws }]').sources[0]).toEqual({ type: 'aws', backfillDays: 70, roleArns: [], maxAttempts: 4 });
  });

  it('says what is wrong with each bad key, and how it should look', () => {
    const message = problems(`
sources:
  - type: aws
    roleArns: [burnrate-read]
    budgets: { accountId: 123456789012, teamPattern: "(unclosed" }
  - type: gcp
    project: My_Project
    table: billing.export
    budgets: {}
  - { type: azure }
`);
    expect(message).toContain(
      'sources[0].roleArns[0]: expected an IAM role ARN such as arn:aws:iam::123456789012:role/burnrate-read, got "burnrate-read"',
    );
    expect(message).toContain('sources[0].budgets.accountId: expected a 12-digit AWS account id in quotes');
    expect(message).toContain('sources[0].budgets.teamPattern: expected a valid regular expression');
    expect(message).toContain('sources[1].project: expected a project id such as my-billing-project, got "My_Project"');
    expect(message).toContain('sources[1].table: expected the export table as project.dataset.table');
    expect(message).toContain('sources[2].type: expected a source with type focus, demo, aws, gcp or athena');
  });

  it('wants a billing account for Google budgets, and one id per source', () => {
    expect(problems('sources: [{ type: gcp, project: acme-billing, table: acme-billing.b.t, budgets: {} }]')).toContain(
      'sources[0].billingAccount: expected the billing account whose budgets to read',
    );
    expect(problems('sources: [{ type: aws }, { type: aws, roleArns: ["arn:aws:iam::111111111111:role/r"] }]')).toContain(
      'sources[1].id: duplicate source id "aws" (also sources[0]): give each source its own id',
    );
    expect(problems('sources: [{ type: aws, rolearns: [] }]')).toContain('sources[0].rolearns: unknown key (did you mean "roleArns"?)');
  });

  it('says what is wrong with each athena key, and refuses names that could leave their quotes', () => {
    const message = problems(`
sources:
  - type: athena
    database: Billing
    table: 'focus"; DROP TABLE x; --'
    format: cur
    outputLocation: https://bucket/results
    maxGigabytesScanned: 0
`);
    expect(message).toContain('sources[0].database: expected the Glue database name in lower-case letters, digits and underscores');
    expect(message).toContain('sources[0].table: expected the Glue table name in lower-case letters, digits and underscores');
    expect(message).toContain('sources[0].format: expected focus (FOCUS 1.2) or cur2 (CUR 2.0)');
    expect(message).toContain('sources[0].outputLocation: expected an s3:// location');
    expect(message).toContain('sources[0].region: is required (expected the AWS region of the table, e.g. us-east-1)');
    expect(message).toContain('sources[0].maxGigabytesScanned: expected a number of GB above 0');
    expect(
      parseConfigText('sources: [{ type: athena, database: billing, table: cur2, format: cur2, region: eu-west-1 }]').sources[0],
    ).toEqual({
      type: 'athena',
      database: 'billing',
      table: 'cur2',
      format: 'cur2',
      region: 'eu-west-1',
      workgroup: 'primary',
      catalog: 'AwsDataCatalog',
      resources: true,
      backfillDays: 70,
      maxGigabytesScanned: 200,
      maxAttempts: 4,
    });
  });
});
