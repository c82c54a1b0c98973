import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureCents as cents, focusCsv, type FixtureRow } from '../providers/focus/helpers.js';
import { cli, workDir } from '../support/run-cli.js';

// `burnrate import focus` with split exports and suspicious lines, end to end. Figures are checked
// against a plain sum, in cents, over the rows the test wrote.

const CONFIG = `teams:
  - { id: ml-research, match: [research] }
  - { id: vision }
sources: []
`;

const nov = (d: number, billed: string, extra: FixtureRow = {}): FixtureRow => ({
  BilledCost: billed,
  EffectiveCost: billed,
  BillingPeriodStart: '2026-11-01T00:00:00Z',
  ChargePeriodStart: `2026-11-0${d}T00:00:00Z`,
  ChargePeriodEnd: `2026-11-0${d}T01:00:00Z`,
  ...extra,
});

// The operator's month: 1,000 USD in two parts; importing part 2 alone used to drop part 1's 400.
const PART_1 = [nov(2, '300.00'), nov(3, '100.00', { Tags: '{"team":"vision"}' })];
const PART_2 = [nov(2, '450.00'), nov(4, '150.00', { Tags: '{"team":"vision"}' })];

function project(config = CONFIG): string {
  const dir = workDir();
  writeFileSync(join(dir, 'burnrate.yml'), config);
  writeFileSync(join(dir, 'focus-00001.csv'), focusCsv(PART_1));
  writeFileSync(join(dir, 'focus-00002.csv'), focusCsv(PART_2));
  return dir;
}

async function storedCents(dir: string): Promise<number> {
  const report = JSON.parse((await cli(['spend', '--json', '--period', '2026-11'], { cwd: dir })).out) as { total: { billed: number } };
  return Math.round(report.total.billed * 100);
}

describe('burnrate import focus: split exports add up', () => {
  it('adds parts imported one at a time, and importing a part again replaces only that part', async () => {
    const dir = project();
    const first = await cli(['import', 'focus', 'focus-00001.csv'], { cwd: dir });
    const second = await cli(['import', 'focus', 'focus-00002.csv'], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.out).toContain('added to the billing period as new parts (no earlier part replaced)');
    expect(first.code).toBe(0);
    expect(await storedCents(dir)).toBe(cents([...PART_1, ...PART_2]));
    expect(await storedCents(dir)).toBe(100_000);

    const again = await cli(['import', 'focus', 'focus-00002.csv'], { cwd: dir });
    expect(again.out).toContain('replaced earlier part focus-00002.csv (2 earlier rows), other parts kept');
    expect(await storedCents(dir)).toBe(100_000);
  });

  it('refuses an import that would shrink the month by more than half, and --replace-period replaces it and says so', async () => {
    const dir = project();
    await cli(['import', 'focus', 'focus-00001.csv', 'focus-00002.csv'], { cwd: dir });
    expect(await storedCents(dir)).toBe(100_000);
    // a bad export delivered under the same names: a row of 10 and a row of 1
    writeFileSync(join(dir, 'focus-00001.csv'), focusCsv([nov(5, '10.00')]));
    writeFileSync(join(dir, 'focus-00002.csv'), focusCsv([nov(6, '1.00')]));
    const shrink = await cli(['import', 'focus', 'focus-00001.csv', 'focus-00002.csv'], { cwd: dir });
    expect(shrink.code).toBe(2);
    expect(shrink.err).toContain('billing period 2026-11 of account 123456789012: 1,000.00 USD before, 11.00 USD after (-99%)');
    expect(shrink.err).toContain('--replace-period');
    expect(await storedCents(dir)).toBe(100_000);

    writeFileSync(join(dir, 'one-row.csv'), focusCsv([nov(5, '10.00')]));
    const replaced = await cli(['import', 'focus', 'one-row.csv', '--replace-period'], { cwd: dir });
    expect(replaced.code).toBe(0);
    expect(replaced.out).toContain('replaced the whole billing period 2026-11 (4 earlier rows)');
    expect(await storedCents(dir)).toBe(1000);
  });
});

describe('burnrate import focus: sanity of the values', () => {
  it('refuses the currency code EURO, naming the file, row and column and the fix; nothing is written', async () => {
    const dir = project();
    writeFileSync(
      join(dir, 'euro.csv'),
      focusCsv([nov(2, '5.00', { BillingCurrency: 'EUR' }), nov(3, '7.00', { BillingCurrency: 'EURO' })]),
    );
    const result = await cli(['import', 'focus', 'euro.csv'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.err).toContain('euro.csv row 2: BillingCurrency is not an ISO 4217 currency code ("EURO")');
    expect(result.err).toContain('3 upper-case letters such as USD or EUR');
    expect(existsSync(join(dir, 'data', 'burnrate.db'))).toBe(false);
  });

  it('imports a 2e9 cost line with a warning naming it', async () => {
    const dir = project();
    const rows = [nov(2, '12.50'), nov(3, '2000000000', { ResourceId: 'i-0big' }), nov(4, '999999.99')];
    writeFileSync(join(dir, 'big.csv'), focusCsv(rows));
    const result = await cli(['import', 'focus', 'big.csv', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.err).toContain('warning: ');
    expect(result.err).toContain(
      'big.csv row 2, resource i-0big: BilledCost 2,000,000,000 USD is above the sanity ceiling of 1,000,000 per cost line; imported as is',
    );
    expect(result.err).not.toContain('row 3');
    expect(JSON.parse(result.out).warnings).toHaveLength(1);
    expect(await storedCents(dir)).toBe(cents(rows));
  });

  it('takes the ceiling from the focus source of burnrate.yml, and validates it', async () => {
    const config = (ceiling: string) =>
      `${CONFIG.replace('sources: []\n', '')}sources:\n  - { type: focus, paths: [exports/*.csv], lineCostCeiling: ${ceiling} }\n`;
    const dir = project(config('400'));
    const result = await cli(['import', 'focus', 'focus-00002.csv'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.err).toContain(
      'focus-00002.csv row 1, resource i-0abc: BilledCost 450 USD is above the sanity ceiling of 400 per cost line',
    );

    const bad = await cli(['import', 'focus', 'focus-00002.csv'], { cwd: project(config('-5')) });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('lineCostCeiling');
    expect(bad.err).toContain('expected an amount above 0');
  });
});
