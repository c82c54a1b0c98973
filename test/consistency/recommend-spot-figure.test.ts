import { describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { currentRecommendations } from '../../src/snapshots/current-recommendations.js';
import { loadWasteDiagnosis, wastePeriod } from '../../src/snapshots/waste-snapshot.js';
import type { FakeEc2Instance } from '../fakes/fake-ec2.js';
import { dcgmGpuLabelSets, readDcgmExposition, type FakeDcgmGpu } from '../fakes/fake-prometheus.js';
import { spendRow, testDeps } from '../support/deps.js';
import { useFakeGpuFleet } from '../support/waste-fleet.js';

// One spot figure per instance, by hand: a checkpointed trainer on demand, billed $24 a day for two
// whole days [16 Nov, 18 Nov), idle its first 12 of 48 hours, asked on the 18th with a two-day lookback.
// Its spot saving a month is what the bill charged for the 36 hours it worked × spot's catalog
// discount net of rework, scaled from two days to a month; recommend and the waste report both say so.
const NOW = '2026-11-18T06:00:00Z';
const DAYS = ['2026-11-16', '2026-11-17'];
const START = Date.parse(`${DAYS[0]}T00:00:00Z`) / 1000;
const DAILY = 24;
const TRAINER = 'i-0b00000000000000b';

const INSTANCE: FakeEc2Instance = {
  id: TRAINER,
  region: 'us-east-1',
  state: 'running',
  instanceType: 'g4dn.xlarge',
  privateDnsName: 'ip-10-0-1-12.ec2.internal',
  privateIp: '10.0.1.12',
  tags: { team: 'nlp', workload: 'training', checkpoint: 'true', 'checkpoint-interval': '15m' },
};

function fleet(): FakeDcgmGpu[] {
  const [template] = dcgmGpuLabelSets(readDcgmExposition());
  const idle = (t: number) => t < START + 12 * 3600;
  return [
    {
      labels: { ...template, Hostname: 'ip-10-0-1-12', gpu: '0' },
      metrics: { DCGM_FI_DEV_GPU_UTIL: (t) => (idle(t) ? 0 : 97), DCGM_FI_DEV_FB_USED: (t) => (idle(t) ? 0 : 12_000) },
    },
  ];
}

const gpus = useFakeGpuFleet([INSTANCE], fleet);

describe('recommend and the waste report: one spot figure for one instance, equal to a hand computation', () => {
  it('the bill for the hours it worked × the net spot discount, scaled to a month, on both', async () => {
    const t = testDeps(
      {
        teams: [{ id: 'nlp' }],
        sources: [],
        gpu: { metrics: [{ type: 'prometheus', url: gpus.prometheusUrl() }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
        recommendations: { lookbackDays: 2 },
      },
      NOW,
    );
    t.deps.gpu = buildGpuDeps(t.deps.config, {})!;
    const rows = DAYS.map((day) => ({ ...spendRow('nlp', day, DAILY), resourceId: TRAINER }));
    await t.deps.store.importBatches([{ scope: { source: 'test', billingPeriods: ['2026-11'] }, rows, dataThrough: null }]);

    // By hand: 2 reclaims a month, each redoing half the 15-minute interval and a 10-minute restart at
    // the spot price, over the 730 hours a month it runs (it reported all 48 of 48 hours).
    const price = loadPriceCatalog().priceOf('aws', 'g4dn.xlarge', 'us-east-1')!;
    const rework = 2 * ((15 / 2 + 10) / 60) * price.spotHourly!;
    const share = ((price.onDemandHourly - price.spotHourly!) * 730 - rework) / (price.onDemandHourly * 730);
    const worked = rows.reduce((s, r) => s + r.effective, 0) * (36 / 48);
    const expected = Math.round(worked * share * (365.25 / 12 / 2) * 100) / 100;

    const [recommendation] = (await currentRecommendations(t.deps)).filter((r) => r.kind === 'spot');
    expect(recommendation).toMatchObject({ instanceId: TRAINER, kind: 'spot' });
    expect(recommendation!.monthlySaving).toBeCloseTo(expected, 1);
    expect(recommendation!.evidence.join(' ')).toContain('over the 2 days from 2026-11-16 to 2026-11-17');

    const diagnosis = await loadWasteDiagnosis(t.deps, wastePeriod({ days: 2 }, '2026-11-18'));
    const figure = diagnosis.instances.find((i) => i.instanceId === TRAINER)!.spot;
    expect(recommendation!.monthlySaving).toBe(figure);
  });
});
