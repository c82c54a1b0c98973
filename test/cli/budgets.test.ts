import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CloudBudget } from '../../src/domain/cloud-budget.js';
import { daysOf } from '../../src/domain/period.js';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { spendRow } from '../support/deps.js';
import { cli, workDir } from '../support/run-cli.js';

const CONFIG = `
teams:
  - { id: ml-research, name: ML Research, budget: { monthly: 20000, thresholds: [50, 100], forecast: false } }
  - { id: llm-training, name: LLM Training, match: [llm] }
sources:
  - { type: aws, budgets: { accountId: "123456789012" } }
  - { type: gcp, project: acme-billing, table: acme-billing.billing.export, billingAccount: 012345-6789AB-CDEF01, budgets: {} }
`;

function cloudBudget(extra: Partial<CloudBudget> & Pick<CloudBudget, 'origin' | 'name'>): CloudBudget {
  return {
    source: `${extra.origin}:budgets`,
    id: extra.name,
    team: null,
    mappedBy: null,
    period: 'monthly',
    amount: 10000,
    currency: 'USD',
    actual: null,
    forecast: null,
    thresholds: [80],
    notifications: [{ threshold: 80, on: 'actual' }],
    drivesAlerts: true,
    ...extra,
  };
}

/** A database as the sources leave it: 20 days of spend, one budget each in AWS and Google Cloud, AWS failing since. */
async function seededDb(cwd: string): Promise<string> {
  const db = join(cwd, 'burnrate.db');
  const store = openStore(db);
  const days = daysOf({ start: '2026-11-01', end: '2026-11-21' });
  await store.importBatches(
    [
      {
        scope: { source: 'aws', billingPeriods: ['2026-11'] },
        rows: days.flatMap((d) => [spendRow('ml-research', d, 100), spendRow('llm-training', d, 400)]),
        dataThrough: '2026-11-21T00:00:00Z',
      },
    ],
    new Date('2026-11-20T07:00:00Z'),
  );
  await store.cloudBudgets.replace(
    'aws:budgets',
    [cloudBudget({ origin: 'aws', name: 'llm-training-monthly', team: 'llm-training', mappedBy: 'name', actual: 8100, forecast: 12500 })],
    new Date('2026-11-21T08:00:00Z'),
  );
  await store.cloudBudgets.replace(
    'gcp:budgets',
    [cloudBudget({ origin: 'gcp', name: 'Company GPUs', amount: 50000 })],
    new Date('2026-11-21T08:00:00Z'),
  );
  await store.freshness.recordFailure(
    'aws',
    "Cost Explorer denied ce:GetCostAndUsage to burnrate's AWS credentials",
    new Date('2026-11-21T08:00:00Z'),
  );
  await store.close();
  return db;
}

describe('burnrate budgets', () => {
  it("lists burnrate's budgets beside those of AWS and Google Cloud, and says which drive alerts and how stale the data is", async () => {
    const cwd = workDir();
    writeFileSync(join(cwd, 'burnrate.yml'), CONFIG);
    const db = await seededDb(cwd);

    const text = await cli(['budgets', '--db', db], { cwd });
    expect(text.err).toBe('');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/ml-research +monthly \* +burnrate +\$20,000\.00 monthly +\$2,000\.00 \(10%\)/);
    expect(text.out).toMatch(
      /llm-training +llm-training-monthly \* +AWS Budgets +\$10,000\.00 monthly +\$8,100\.00 \(81%\) +\$12,500\.00 \(125%\) +80%/,
    );
    expect(text.out).toMatch(/\(no team\) +Company GPUs +Google Cloud +\$50,000\.00 monthly +— /);
    expect(text.out).toContain('AWS data 26 h old (refresh failing)');

    const json = await cli(['budgets', '--db', db, '--source', 'gcp', '--json'], { cwd });
    const parsed = JSON.parse(json.out) as {
      budgets: { origin: string; name: string; drivesAlerts: boolean }[];
      stale: { source: string; ageHours: number }[];
    };
    expect(parsed.budgets).toEqual([
      expect.objectContaining({ origin: 'gcp', name: 'Company GPUs', team: null, drivesAlerts: false, actual: null }),
    ]);
    expect(parsed.stale).toEqual([{ source: 'aws', ageHours: 26, error: expect.stringContaining('ce:GetCostAndUsage') }]);

    const aws = JSON.parse((await cli(['budgets', '--db', db, '--team', 'llm', '--json'], { cwd })).out) as {
      budgets: { origin: string; actual: number; actualFrom: string }[];
    };
    expect(aws.budgets).toEqual([expect.objectContaining({ origin: 'aws', actual: 8100, actualFrom: 'cloud', drivesAlerts: true })]);

    // Spend answers carry the same caveat.
    const spend = await cli(['spend', '--db', db], { cwd });
    expect(spend.out).toContain('billing data through 20 Nov · AWS data 26 h old (refresh failing)');
    const spendJson = JSON.parse((await cli(['spend', '--db', db, '--json'], { cwd })).out) as { warnings: string[] };
    expect(spendJson.warnings).toEqual(['AWS data 26 h old (refresh failing)']);

    const bad = await cli(['budgets', '--db', db, '--source', 'azure'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--source must be one of aws, gcp, config, got "azure"');
  });
});
