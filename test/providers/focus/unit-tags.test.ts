import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import { monthOf } from '../../../src/domain/period.js';
import { readFocusFiles } from '../../../src/providers/focus/read-focus.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import { pullContext, tempDir, writeFocusCsv } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('FOCUS import of the unit-cost tags (experiment, run, sweep)', () => {
  it('keeps the configured tag values per daily row, and unit totals sum them per team', async () => {
    const file = writeFocusCsv(tmp.path('units.csv'), [
      { EffectiveCost: '10', Tags: '{"team":"llm","experiment":"pretrain-7b","run_id":"r1"}' },
      { EffectiveCost: '5', ChargePeriodStart: '2026-10-02T00:00:00Z', Tags: '{"team":"llm","Experiment":"pretrain-7b","RUN_ID":" r2 "}' },
      { EffectiveCost: '3', ResourceId: 'i-0sweep', Tags: '{"team":"llm","sweep":"lr-grid","run_id":"t1"}' },
      { EffectiveCost: '7', ResourceId: 'i-0none', Tags: '{"team":"llm"}' },
    ]);
    const { unitCosts } = configSchema.parse({ unitCosts: { tagKeys: { run: 'run_id' } } });
    const batch = await readFocusFiles([file], { ...pullContext(), unitTagKeys: unitCosts.tagKeys }, 'focus');
    const rows = batch.rows.map((r) => [r.effective, r.experiment, r.run, r.sweep]).sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(rows).toEqual([
      [3, null, 't1', 'lr-grid'],
      [5, 'pretrain-7b', 'r2', null],
      [7, null, null, null],
      [10, 'pretrain-7b', 'r1', null],
    ]);

    const store = openStore(':memory:');
    await store.importBatches([batch]);
    const october = monthOf('2026-10-01');
    const totals = async (unit: 'experiment' | 'run' | 'sweep') =>
      (await store.breakdowns.unitTotals(october, 'llm-training', unit)).map(({ key, effective }) => ({ key, effective }));
    expect(await totals('experiment')).toEqual([{ key: 'pretrain-7b', effective: 15 }]);
    expect(await totals('run')).toEqual([
      { key: 'r1', effective: 10 },
      { key: 'r2', effective: 5 },
      { key: 't1', effective: 3 },
    ]);
    expect(await totals('sweep')).toEqual([{ key: 'lr-grid', effective: 3 }]);
    await store.close();
  });

  it('reads no unit tags when none are asked for', async () => {
    const file = writeFocusCsv(tmp.path('plain.csv'), [{ Tags: '{"team":"llm","experiment":"x"}' }]);
    const batch = await readFocusFiles([file], pullContext(), 'focus');
    expect(batch.rows[0]).toMatchObject({ experiment: null, run: null, sweep: null });
  });
});
