import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, workDir } from '../support/run-cli.js';
import { focusCsv } from '../providers/focus/helpers.js';
import { daysOf } from '../../src/domain/period.js';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { spendRow } from '../support/deps.js';

// A team whose spend comes partly in yen, with a budget in dollars and no rate in burnrate.yml:
// its budget check is held, and `burnrate check` (plain, --dry-run and --json) names the team, the
// currency and the setting to write.

const CONFIG = `ownership: { tagKeys: [team] }
teams:
  - { id: ml-research, budget: { monthly: 1000, currency: USD, thresholds: [50], forecast: false } }
  - { id: vision, budget: { monthly: 1000, currency: USD, thresholds: [50], forecast: false } }
sources: []
`;

const line = (cost: string, currency: string, team: string) => ({
  BilledCost: cost,
  EffectiveCost: cost,
  BillingCurrency: currency,
  BillingPeriodStart: '2026-11-01T00:00:00Z',
  ChargePeriodStart: '2026-11-02T00:00:00Z',
  ChargePeriodEnd: '2026-11-03T00:00:00Z',
  Tags: `{"team":"${team}"}`,
});

async function project(): Promise<string> {
  const dir = workDir();
  writeFileSync(join(dir, 'burnrate.yml'), CONFIG);
  writeFileSync(
    join(dir, 'nov.csv'),
    focusCsv([line('400.00', 'USD', 'ml-research'), line('30000', 'JPY', 'ml-research'), line('600.00', 'USD', 'vision')]),
  );
  expect((await cli(['import', 'focus', 'nov.csv'], { cwd: dir })).code).toBe(0);
  return dir;
}

const SETTING = 'fx: { base: USD, asOf: YYYY-MM-DD, rates: { JPY: <USD per JPY> } }';
const NOW = '2026-11-05T09:00:00Z';

describe('burnrate check says which team is held and why', () => {
  it('names the team, the currency without a rate and the setting to add, on a run and a dry run', async () => {
    const dir = await project();
    for (const args of [['check', '--dry-run'], ['check']]) {
      const run = await cli(args, { cwd: dir, now: NOW });
      expect(run.code).toBe(0);
      expect(run.out).toContain('Budget checks held for ml-research:');
      expect(run.out).toContain(`ml-research: held, spend in JPY has no exchange rate to USD; add to burnrate.yml: ${SETTING}`);
      // The team with a rate for everything it spends is checked as usual (600 of 1,000 crosses 50%).
      expect(run.out).not.toContain('vision: held');
    }
  });

  it('gives the reason as data in --json', async () => {
    const dir = await project();
    const check = JSON.parse((await cli(['check', '--json', '--dry-run'], { cwd: dir, now: NOW })).out);
    expect(check.held.teams).toEqual(['ml-research']);
    expect(check.held.why).toEqual([
      {
        team: 'ml-research',
        reasons: [
          {
            kind: 'missing-rate',
            currencies: ['JPY'],
            budgetCurrency: 'USD',
            problem: 'spend in JPY has no exchange rate to USD',
            fix: `add to burnrate.yml: ${SETTING}`,
          },
        ],
      },
    ]);
    expect(check.findings.map((f: { id: string }) => f.id)).toEqual(['budget.actual:vision:2026-11:50']);
  });

  it('names the team fed by a failing source, the source, its error and what to do', async () => {
    const cwd = workDir();
    writeFileSync(
      join(cwd, 'burnrate.yml'),
      `teams:
  - { id: ml-research, budget: { monthly: 1000, thresholds: [50], forecast: false } }
sources:
  - { type: aws }
`,
    );
    const db = join(cwd, 'burnrate.db');
    const store = openStore(db);
    await store.importBatches(
      [
        {
          scope: { source: 'aws', billingPeriods: ['2026-11'] },
          rows: daysOf({ start: '2026-11-01', end: '2026-11-05' }).map((d) => spendRow('ml-research', d, 100)),
          dataThrough: '2026-11-05T00:00:00Z',
        },
      ],
      new Date('2026-11-05T07:00:00Z'),
    );
    const error = "Cost Explorer denied ce:GetCostAndUsage to burnrate's AWS credentials";
    await store.freshness.recordFailure('aws', error, new Date('2026-11-05T08:00:00Z'));
    await store.close();

    const run = await cli(['check', '--dry-run', '--db', db], { cwd, now: NOW });
    expect(run.out).toContain(
      `ml-research: held, AWS data 2 h old (refresh failing: ${error}); fix the error of AWS; checks resume at the first refresh that works`,
    );
    const json = JSON.parse((await cli(['check', '--json', '--dry-run', '--db', db], { cwd, now: NOW })).out);
    expect(json.held.why).toEqual([
      { team: 'ml-research', reasons: [expect.objectContaining({ kind: 'stale-source', source: 'aws', ageHours: 2, error })] },
    ]);
  });
});
