import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BurnrateError } from '../../../src/domain/errors.js';
import { expandFocusPaths, FocusSource } from '../../../src/providers/focus/focus-source.js';
import { focusCsv, pullContext, tempDir, writeFocusCsv } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

mkdirSync(tmp.path('exports/2026/10'), { recursive: true });
writeFocusCsv(tmp.path('exports/a.csv'), [{ BilledCost: '1' }]);
writeFileSync(tmp.path('exports/b.csv.gz'), gzipSync(focusCsv([{ BilledCost: '2' }])));
writeFocusCsv(tmp.path('exports/2026/10/c.csv'), [{ BilledCost: '4' }]);
writeFileSync(tmp.path('exports/notes.txt'), 'not an export');

describe('FocusSource', () => {
  it('is a focus source with the configured id', () => {
    const source = new FocusSource({ id: 'focus-prod', paths: [] });
    expect(source.type).toBe('focus');
    expect(source.id).toBe('focus-prod');
    expect(new FocusSource({ paths: ['x.csv'] }).id).toBe('focus');
  });

  it('pulls every file of its globs as one batch scoped by its id', async () => {
    const source = new FocusSource({ id: 'focus-prod', paths: [tmp.path('exports/*.csv'), tmp.path('exports/*.csv.gz')] });
    const batches = await source.pull(pullContext());
    expect(batches).toHaveLength(1);
    expect(batches[0]!.scope.source).toBe('focus-prod');
    expect(batches[0]!.rows.reduce((sum, r) => sum + r.billed, 0)).toBe(3);
  });

  it('expands globs: * stays in its folder, ** descends, plain paths are kept, duplicates dropped', async () => {
    expect(await expandFocusPaths([tmp.path('exports/*.csv')])).toEqual([tmp.path('exports/a.csv')]);
    expect(await expandFocusPaths([tmp.path('exports/**/*.csv')])).toEqual([tmp.path('exports/2026/10/c.csv'), tmp.path('exports/a.csv')]);
    expect(await expandFocusPaths([tmp.path('exports/*.csv*'), tmp.path('exports/a.csv')])).toEqual([
      tmp.path('exports/a.csv'),
      tmp.path('exports/b.csv.gz'),
    ]);
    expect(await expandFocusPaths([tmp.path('exports/20??/1[0-2]/*.csv')])).toEqual([tmp.path('exports/2026/10/c.csv')]);
    expect(await expandFocusPaths(['some/plain/file.parquet'])).toEqual(['some/plain/file.parquet']);
  });

  it('a glob that matches no file is an error naming the pattern', async () => {
    const pattern = tmp.path('exports/*.parquet');
    const error = await new FocusSource({ paths: [pattern] }).pull(pullContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BurnrateError);
    expect(error).toMatchObject({ code: 'burnrate_focus_missing', message: `no file matches ${pattern}` });
  });

  it('a missing plain path is reported by the reader', async () => {
    const error = await new FocusSource({ paths: [tmp.path('exports/nov.csv')] }).pull(pullContext()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'burnrate_focus_missing', message: `FOCUS file not found: ${tmp.path('exports/nov.csv')}` });
  });
});
