import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/period.js';
import { FakeAwsBilling, type FakeCostLine } from '../fakes/fake-aws-billing.js';
import { fakeLifecycle } from '../support/fake-lifecycle.js';
import { workDir } from '../support/run-cli.js';
import { startServe } from '../support/serve-process.js';

const CONFIG = `
ownership: { tagKeys: [team] }
teams:
  - { id: llm-training, name: LLM Training, match: [llm], budget: { monthly: 10000, thresholds: [50, 80, 100], forecast: false } }
sources:
  - { type: aws }
`;

function costs(): FakeCostLine[] {
  const lines: FakeCostLine[] = [];
  for (let day = '2026-09-01'; day < '2026-11-23'; day = addDays(day, 1)) lines.push({ day, tag: 'llm', service: 'Amazon SageMaker', unblended: 300 });
  return lines;
}

const fakes = fakeLifecycle<FakeAwsBilling>();

/** The compiled `burnrate serve` with an aws source, against the Cost Explorer fake. */
describe('burnrate serve with live AWS spend', () => {
  it('loads spend from Cost Explorer and alerts; with a revoked key it says the data is stale instead', async () => {
    const aws = fakes.track(await FakeAwsBilling.start({ costs: costs() }));
    const dir = workDir();
    writeFileSync(join(dir, 'burnrate.yml'), CONFIG);
    const env = {
      BURNRATE_CONFIG: join(dir, 'burnrate.yml'),
      BURNRATE_DB: join(dir, 'burnrate.db'),
      AWS_ENDPOINT_URL: aws.endpoint,
      AWS_ACCESS_KEY_ID: 'AKIDBURNRATETEST',
      AWS_SECRET_ACCESS_KEY: 'fake-secret-key',
      AWS_CONFIG_FILE: join(dir, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'no-aws-credentials'),
    };

    const first = await startServe({ ...env, BURNRATE_NOW: '2026-11-21T09:00:00Z' });
    expect(await first.stop()).toBe(0);
    expect(first.out()).toContain('source aws: 70 daily rows (first load)');
    // 20 days of 300 in November: 60% of 10,000.
    expect(first.out()).toMatch(/── #llm-training ─+\nLLM Training has spent 60% of its November 2026 budget/);
    expect(aws.callsOf('GetCostAndUsage')).toHaveLength(1);

    aws.breakCredentials();
    const second = await startServe({ ...env, BURNRATE_NOW: '2026-11-22T11:00:00Z' });
    expect(await second.stop()).toBe(0);
    expect(second.out()).toContain("source aws failed: Cost Explorer rejected burnrate's AWS credentials (UnrecognizedClientException).");
    expect(second.out()).toMatch(/── #llm-training ─+\nBudget alerts on hold: AWS data 26 h old/);
    expect(second.out()).not.toContain('has spent');
    // The secret never shows.
    expect(first.out() + first.err() + second.out() + second.err()).not.toContain('fake-secret-key');
  }, 120_000);
});
