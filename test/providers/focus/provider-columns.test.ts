import { afterAll, describe, expect, it } from 'vitest';
import { spendReport } from '../../../commands/spend.js';
import { configSchema } from '../../../src/config/schema.js';
import { monthOf } from '../../../src/domain/period.js';
import { readFocusFiles } from '../../../src/providers/focus/read-focus.js';
import { testDeps } from '../../support/deps.js';
import { HEADER, pullContext, tempDir, writeFocusCsv } from './helpers.js';

// Provider-specific FOCUS columns (x_…): AWS's x_UsageType kept as a dimension when a source asks
// for it, and AWS's x_CostCategories read for ownership after the tags. Expected figures are sums
// over the lines written here.

const tmp = tempDir();
afterAll(() => tmp.cleanup());

// cost, resource, tags, usage type, cost categories
const LINES: [string, string, string, string, string][] = [
  ['40.00', 'i-0a', '{"team":"ml-research"}', 'BoxUsage:p5.48xlarge', '{"team":"vision"}'],
  ['10.00', 'i-0a', '{"team":"ml-research"}', 'BoxUsage:p5.48xlarge', '{"team":"vision"}'],
  ['7.00', 'vol-1', '{"team":"ml-research"}', 'EBS:VolumeUsage.gp3', ''],
  // No owner tag: the account's cost category says vision.
  ['5.00', 'i-0b', '{}', 'BoxUsage:g6.xlarge', '{"team":"vision"}'],
  ['3.00', 'i-0c', '{}', 'BoxUsage:g6.xlarge', ''],
];

function file(): string {
  const rows = LINES.map(([cost, resource, tags, usageType, categories]) => ({
    BilledCost: cost,
    EffectiveCost: cost,
    BillingPeriodStart: '2026-11-01T00:00:00Z',
    ChargePeriodStart: '2026-11-05T00:00:00Z',
    ChargePeriodEnd: '2026-11-05T01:00:00Z',
    ResourceId: resource,
    Tags: tags,
    x_UsageType: usageType,
    x_Operation: 'RunInstances',
    x_CostCategories: categories,
  }));
  return writeFocusCsv(tmp.path('aws-focus.csv'), rows, [...HEADER, 'x_UsageType', 'x_Operation', 'x_CostCategories']);
}

const byHand = (keep: (line: (typeof LINES)[number]) => boolean) => LINES.filter(keep).reduce((sum, [cost]) => sum + Number(cost), 0);

describe('provider columns (x_…)', () => {
  it('keeps the columns a source lists, and spend groups by them', async () => {
    const { deps } = testDeps({ teams: [{ id: 'ml-research' }, { id: 'vision' }] }, '2026-11-10T09:00:00Z');
    await deps.store.importBatches([
      await readFocusFiles([file()], pullContext(['team']), 'focus', { dimensions: ['x_UsageType', 'x_Missing'] }),
    ]);
    const report = await spendReport(deps, { period: monthOf('2026-11-01'), by: 'x_UsageType' });
    expect(Object.fromEntries(report.rows.map((r) => [r.key, r.effective]))).toEqual({
      'BoxUsage:p5.48xlarge': byHand((l) => l[3] === 'BoxUsage:p5.48xlarge'),
      'BoxUsage:g6.xlarge': byHand((l) => l[3] === 'BoxUsage:g6.xlarge'),
      'EBS:VolumeUsage.gp3': byHand((l) => l[3] === 'EBS:VolumeUsage.gp3'),
    });
    // A column the source does not keep groups everything under "(none)".
    const other = await spendReport(deps, { period: monthOf('2026-11-01'), by: 'x_Operation' });
    expect(other.rows.map((r) => [r.key, r.effective])).toEqual([['(none)', byHand(() => true)]]);
  });

  it('reads ownership from the Cost Categories when the tags name no owner; tags win', async () => {
    const { rows } = await readFocusFiles([file()], pullContext(['team']));
    const teamCost = (team: string) => rows.filter((r) => r.team === team).reduce((s, r) => s + r.effective, 0);
    expect(teamCost('ml-research')).toBeCloseTo(
      byHand((l) => l[2].includes('ml-research')),
      9,
    );
    expect(teamCost('vision')).toBeCloseTo(
      byHand((l) => l[2] === '{}' && l[4].includes('vision')),
      9,
    );
    expect(rows.find((r) => r.resourceId === 'i-0c')?.ownerTag).toBeNull();
  });

  it('says what a provider column must look like in burnrate.yml', () => {
    const result = configSchema.safeParse({ sources: [{ type: 'focus', paths: ['x.csv'], dimensions: ['UsageType'] }] });
    expect(result.error?.issues[0]?.message).toBe(
      'expected a provider column of the export, named x_… as FOCUS names them, e.g. x_UsageType',
    );
  });
});
