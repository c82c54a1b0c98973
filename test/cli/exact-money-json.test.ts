import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, workDir } from '../support/run-cli.js';
import { focusCsv, type FixtureRow } from '../providers/focus/helpers.js';

// Bills carry exact decimals; a sum of them as binary doubles does not (0.1 + 0.2 is
// 0.30000000000000004). A FOCUS file of amounts with four decimals over many days and resources is
// imported, and every amount the JSON answers print must be the exact decimal sum, computed here
// in integer ten-thousandths from the strings written.

const CONFIG = `ownership: { tagKeys: [team] }
teams:
  - { id: ml-research }
  - { id: vision }
sources: []
`;

const TEAMS = ['ml-research', 'vision'] as const;
const RESOURCES = ['i-0a', 'i-0b', 'i-0c'];

/** Amounts with four decimals, spread so that adding them as doubles leaves noise. */
function amountOf(i: number): string {
  const tenThousandths = ((i * 7919) % 100_000) + 1; // 0.0001 .. 10.0000
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, '0')}`;
}

const ROWS: FixtureRow[] = [];
for (let day = 1; day <= 30; day++)
  for (const [t, team] of TEAMS.entries())
    for (const [r, resource] of RESOURCES.entries()) {
      const amount = amountOf(day * 10 + t * 3 + r);
      const date = `2026-11-${String(day).padStart(2, '0')}`;
      ROWS.push({
        BilledCost: amount,
        EffectiveCost: amount,
        BillingPeriodStart: '2026-11-01T00:00:00Z',
        ChargePeriodStart: `${date}T00:00:00Z`,
        ChargePeriodEnd: `${date}T01:00:00Z`,
        ResourceId: `${resource}-${team}`,
        Tags: `{"team":"${team}"}`,
      });
    }

/** The exact decimal sum of amounts written as strings, by integer arithmetic: "2175.5259". */
function exactSum(amounts: readonly string[]): string {
  const total = amounts.reduce((sum, a) => sum + BigInt(a.replace('.', '')), 0n);
  const digits = total.toString().padStart(5, '0');
  return `${digits.slice(0, -4)}.${digits.slice(-4)}`.replace(/\.?0+$/, '');
}

describe('money in JSON answers is the exact decimal sum of the bill', () => {
  it('spend --json prints each team and the total as the decimals the rows add up to', async () => {
    const dir = workDir();
    writeFileSync(join(dir, 'burnrate.yml'), CONFIG);
    writeFileSync(join(dir, 'nov.csv'), focusCsv(ROWS));
    expect((await cli(['import', 'focus', 'nov.csv'], { cwd: dir })).code).toBe(0);

    // The test bites: adding these amounts as doubles, as a store does, shows binary noise.
    const naive = ROWS.reduce((sum, r) => sum + Number(r.EffectiveCost), 0);
    expect(String(naive)).not.toBe(exactSum(ROWS.map((r) => r.EffectiveCost!)));

    const spend = await cli(['spend', '--json', '--period', '2026-11'], { cwd: dir, now: '2026-12-05T09:00:00Z' });
    const report = JSON.parse(spend.out);
    for (const team of TEAMS) {
      const written = exactSum(ROWS.filter((r) => r.Tags!.includes(team)).map((r) => r.EffectiveCost!));
      const row = report.rows.find((r: { key: string }) => r.key === team);
      // Compared as the text printed, not as numbers close to each other.
      expect(spend.out).toContain(`"effective": ${written}`);
      expect(String(row.effective)).toBe(written);
    }
    expect(String(report.total.effective)).toBe(exactSum(ROWS.map((r) => r.EffectiveCost!)));

    const byResource = await cli(['spend', '--json', '--period', '2026-11', '--by', 'resource'], { cwd: dir, now: '2026-12-05T09:00:00Z' });
    for (const row of JSON.parse(byResource.out).rows as { key: string; effective: number }[]) {
      const written = exactSum(ROWS.filter((r) => r.ResourceId === row.key).map((r) => r.EffectiveCost!));
      expect(String(row.effective)).toBe(written);
    }
    expect(byResource.out).not.toMatch(/\d\.\d{7,}/);
  });
});
