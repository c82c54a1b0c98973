import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/period.js';
import { FakeAwsBilling, type FakeCostLine } from '../fakes/fake-aws-billing.js';
import type { FakeExportRow } from '../fakes/fake-bigquery-export.js';
import { FakeGoogleCloud } from '../fakes/fake-google-cloud.js';
import { fakeLifecycle } from '../support/fake-lifecycle.js';
import { workDir } from '../support/run-cli.js';
import { startServe } from '../support/serve-process.js';

const TABLE = 'acme-billing.billing_export.gcp_billing_export_v1_012345_6789AB_CDEF01';

const CONFIG = `
ownership: { tagKeys: [team] }
teams:
  - { id: llm-training, name: LLM Training, match: [llm], budget: { monthly: 10000, thresholds: [50, 80, 100], forecast: false } }
  - { id: ml-research, name: ML Research, match: [research], budget: { monthly: 20000, thresholds: [50, 80, 100], forecast: false } }
sources:
  - { type: aws }
  - { type: gcp, project: acme-billing, table: ${TABLE}, location: EU }
`;

/** LLM Training on AWS, 300 a day; ML Research on Google Cloud, 700 a day less a 100 credit. */
function awsCosts(): FakeCostLine[] {
  const lines: FakeCostLine[] = [];
  for (let day = '2026-09-01'; day < '2026-11-23'; day = addDays(day, 1))
    lines.push({ day, tag: 'llm', service: 'Amazon SageMaker', unblended: 300 });
  return lines;
}
function gcpRows(): FakeExportRow[] {
  const rows: FakeExportRow[] = [];
  for (let day = '2026-09-01'; day < '2026-11-23'; day = addDays(day, 1))
    rows.push({ day, service: 'Compute Engine', project: 'research-gpu', projectLabels: { team: 'research' }, cost: 700, credits: [-100] });
  return rows;
}

const fakes = fakeLifecycle<FakeAwsBilling | FakeGoogleCloud>();

/**
 * The compiled `burnrate serve` with aws and gcp sources, each cloud's credentials from the
 * environment as in production: AWS keys, and a workload-identity credential file for Google
 * whose token exchange is the fake's.
 */
describe('burnrate serve with live AWS and Google Cloud spend', () => {
  it('loads spend from both and alerts; with a revoked AWS key it says that data is stale instead', async () => {
    const aws = fakes.track(await FakeAwsBilling.start({ costs: awsCosts() }));
    const gcp = fakes.track(await FakeGoogleCloud.start({ table: TABLE, exportRows: gcpRows() }));
    const dir = workDir();
    writeFileSync(join(dir, 'burnrate.yml'), CONFIG);
    writeFileSync(join(dir, 'subject-token'), 'a-federated-identity-token');
    writeFileSync(join(dir, 'google-credentials.json'), JSON.stringify(gcp.externalAccountCredential(join(dir, 'subject-token'))));
    const env = {
      BURNRATE_CONFIG: join(dir, 'burnrate.yml'),
      BURNRATE_DB: join(dir, 'burnrate.db'),
      AWS_ENDPOINT_URL: aws.endpoint,
      AWS_ACCESS_KEY_ID: 'AKIDBURNRATETEST',
      AWS_SECRET_ACCESS_KEY: 'fake-secret-key',
      AWS_CONFIG_FILE: join(dir, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'no-aws-credentials'),
      GOOGLE_APPLICATION_CREDENTIALS: join(dir, 'google-credentials.json'),
      BURNRATE_GCP_ENDPOINT: gcp.endpoint,
    };

    const first = await startServe({ ...env, BURNRATE_NOW: '2026-11-21T09:00:00Z' });
    expect(await first.stop()).toBe(0);
    expect(first.out()).toContain('source aws: 70 daily rows (first load)');
    expect(first.out()).toContain('source gcp: 70 daily rows (first load)');
    // 20 days of November: 6,000 of 10,000 on AWS, 12,000 (after credits) of 20,000 on Google Cloud.
    expect(first.out()).toMatch(/── #llm-training ─+\n\S+ LLM Training has spent 60% of its November 2026 budget/);
    expect(first.out()).toMatch(/── #ml-research ─+\n\S+ ML Research has spent 60% of its November 2026 budget/);
    expect(gcp.callsOf('sts.token').length).toBeGreaterThan(0);
    expect(gcp.callsOf('bigquery.query').every((c) => c.token !== null)).toBe(true);

    aws.breakCredentials();
    const second = await startServe({ ...env, BURNRATE_NOW: '2026-11-22T11:00:00Z' });
    expect(await second.stop()).toBe(0);
    expect(second.out()).toContain("source aws failed: Cost Explorer rejected burnrate's AWS credentials (UnrecognizedClientException).");
    expect(second.out()).toMatch(/source gcp: \d+ daily rows/);
    expect(second.out()).toMatch(/── #llm-training ─+\nBudget alerts on hold: AWS data 26 h old/);
    expect(second.out()).not.toMatch(/── #ml-research ─+\nBudget alerts on hold/);
    // The secret never shows.
    expect(first.out() + first.err() + second.out() + second.err()).not.toContain('fake-secret-key');
  }, 120_000);
});
