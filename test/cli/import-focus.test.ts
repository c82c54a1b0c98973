import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, workDir } from '../support/run-cli.js';
import { focusCsv } from '../providers/focus/helpers.js';

const CONFIG = `ownership: { tagKeys: [team, user:team] }
teams:
  - { id: ml-research, match: [research], budget: { monthly: 60, thresholds: [50], forecast: false } }
  - { id: vision }
sources: []
`;

const NOVEMBER = [
  {
    BilledCost: '40.10',
    EffectiveCost: '40.00',
    ChargePeriodStart: '2026-11-02T00:00:00Z',
    ChargePeriodEnd: '2026-11-02T01:00:00Z',
    BillingPeriodStart: '2026-11-01T00:00:00Z',
    Tags: '{" Team ":"Research"}',
  },
  {
    BilledCost: '25.05',
    EffectiveCost: '25.05',
    ChargePeriodStart: '2026-11-03T00:00:00Z',
    ChargePeriodEnd: '2026-11-04T00:00:00Z',
    BillingPeriodStart: '2026-11-01T00:00:00Z',
    Tags: '{"user:team":"vision"}',
  },
  {
    BilledCost: '3.00',
    EffectiveCost: '3.00',
    ChargePeriodStart: '2026-11-03T00:00:00Z',
    ChargePeriodEnd: '2026-11-04T00:00:00Z',
    BillingPeriodStart: '2026-11-01T00:00:00Z',
    Tags: 'NULL',
  },
];

function project(): string {
  const dir = workDir();
  writeFileSync(join(dir, 'burnrate.yml'), CONFIG);
  writeFileSync(join(dir, 'nov.csv'), focusCsv(NOVEMBER));
  return dir;
}

describe('burnrate import focus, end to end', () => {
  it('imports, reports by team, alerts, and replaces the billing period on re-import', async () => {
    const dir = project();
    const first = await cli(['import', 'focus', 'nov.csv', '--json'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({
      rowsInserted: 3,
      rowsDeleted: 0,
      billingPeriods: ['2026-11'],
      dataThrough: '2026-11-04T00:00:00.000Z',
    });
    await cli(['import', 'focus', 'nov.csv'], { cwd: dir });

    const report = JSON.parse((await cli(['spend', '--json', '--period', '2026-11'], { cwd: dir })).out);
    expect(report.rows).toEqual([
      { key: 'ml-research', billed: 40.1, effective: 40 },
      { key: 'vision', billed: 25.05, effective: 25.05 },
      { key: '(untagged)', billed: 3, effective: 3 },
    ]);
    expect(report.total.billed).toBeCloseTo(68.15, 9);

    const check = JSON.parse((await cli(['check', '--json'], { cwd: dir, now: '2026-11-05T09:00:00Z' })).out);
    expect(check.findings.map((f: { id: string; state: string }) => [f.id, f.state])).toEqual([
      ['budget.actual:ml-research:2026-11:50', 'new'],
    ]);
  });

  it.each([
    ['empty.csv', '', 'file is empty'],
    ['columns.csv', 'BilledCost,Tags\n1,{}\n', 'missing FOCUS columns EffectiveCost'],
    ['costs.csv', focusCsv([{ BilledCost: '12,50x' }]), 'BilledCost'],
  ])('rejects %s with a clear message, exit code 2 and nothing written', async (name, content, message) => {
    const dir = project();
    writeFileSync(join(dir, name), content);
    const result = await cli(['import', 'focus', 'nov.csv', name], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.err).toContain(name);
    expect(result.err).toContain(message);
    expect(existsSync(join(dir, 'data', 'burnrate.db'))).toBe(false);
  });
});
