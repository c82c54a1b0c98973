import { mkdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import type { FocusBatch } from '../../../src/providers/focus/read-focus.js';
import { buildSources } from '../../../src/providers/registry.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import { testDeps } from '../../support/deps.js';
import pino from 'pino';
import { fixtureCents as cents, pullContext, tempDir, writeFocusCsv, type FixtureRow } from './helpers.js';

// A configured focus source reads its folder whole on every pull: files that change, appear or are
// read again are never counted twice. Figures are checked against a plain sum over the rows written.

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const OCTOBER = { start: '2026-10-01', end: '2026-11-01' };

describe('a configured focus source, pulled on a schedule', () => {
  const config = configSchema.parse({
    sources: [{ type: 'focus', id: 'focus-prod', paths: [tmp.path('drop/*.csv')], lineCostCeiling: 500 }],
  });
  const [source] = buildSources(config).spend;
  mkdirSync(tmp.path('drop'));

  it('replaces what its previous pull read, as files change and appear, and warns about lines above its ceiling', async () => {
    const store = openStore(':memory:');
    const first: FixtureRow[] = [{ BilledCost: '120.00' }, { BilledCost: '80.00', Tags: '{"team":"cv"}' }];
    writeFocusCsv(tmp.path('drop/part-1.csv'), first);
    await store.importBatches(await source!.pull(pullContext()));

    const changed: FixtureRow[] = [{ BilledCost: '130.00' }, { BilledCost: '80.00', Tags: '{"team":"cv"}' }];
    const added: FixtureRow[] = [{ BilledCost: '750.00', ResourceId: 'i-0huge' }];
    writeFocusCsv(tmp.path('drop/part-1.csv'), changed);
    writeFocusCsv(tmp.path('drop/part-2.csv'), added);
    const batches = (await source!.pull(pullContext())) as FocusBatch[];
    expect(batches[0]!.warnings).toEqual([
      expect.stringContaining('part-2.csv row 1, resource i-0huge: BilledCost 750 USD is above the sanity ceiling of 500 per cost line'),
    ]);
    const summary = await store.importBatches(batches);
    expect(summary).toMatchObject({ replaced: 'parts', replacedParts: ['part-1.csv'] });

    const totals = await store.spend.totals({ period: OCTOBER }, 'team');
    expect(Math.round(totals.reduce((s, t) => s + t.billed, 0) * 100)).toBe(cents([...changed, ...added]));
    await store.close();
  });

  it('says in the log, on a scheduled refresh, which lines are above the ceiling', async () => {
    const { deps } = testDeps({});
    const lines: string[] = [];
    deps.log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    deps.sources = [source!];
    writeFocusCsv(tmp.path('drop/part-3.csv'), [{ BilledCost: '900.00', ResourceId: 'i-0huge2' }]);
    const [result] = await refreshSources(deps);
    expect(result).toMatchObject({ source: 'focus-prod', ok: true });
    const warnings = lines
      .map((l) => JSON.parse(l) as { msg: string; source: string; warning: string })
      .filter((l) => l.msg === 'source data looks wrong');
    expect(warnings.map((w) => w.warning)).toContainEqual(
      expect.stringContaining('part-3.csv row 1, resource i-0huge2: BilledCost 900 USD is above the sanity ceiling of 500'),
    );
    expect(warnings.every((w) => w.source === 'focus-prod')).toBe(true);
  });
});
