// How the FOCUS import grows with the file: the real import (DuckDB aggregation read chunk by
// chunk, team mapping, SQLite write) and its floor (one independent DuckDB query reading and
// grouping the same columns, bench/focus-import-child.ts) over files of several sizes, alternating
// in one run, each in a process of its own. Targets: time ≤ 1.3× the floor's at 1 M and 4 M rows,
// peak RSS ≤ 1.2× the floor's, so both grow like the floor's.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generateFocusCsv } from '../scripts/generate-focus.js';
import { runChild } from './focus-import.js';
import type { ChildResult } from './focus-import-child.js';
import { median } from './stats.js';

export interface ImportGrowthPoint {
  rows: number;
  storedRows: number;
  import: { ms: number; peakRssMb: number };
  floor: { ms: number; peakRssMb: number };
  /** import / floor, medians. */
  timeRatio: number;
  rssRatio: number;
}

export interface ImportGrowthBench {
  runs: number;
  points: ImportGrowthPoint[];
}

/** Sizes in rows; a file of each is generated once (seed 42) and kept in workDir for later runs. */
export async function benchImportGrowth(opts: { sizes: readonly number[]; runs: number; workDir: string }): Promise<ImportGrowthBench> {
  mkdirSync(opts.workDir, { recursive: true });
  const points: ImportGrowthPoint[] = [];
  for (const rows of opts.sizes) {
    const csv = join(opts.workDir, `focus-${rows}.csv`);
    if (!existsSync(csv)) await generateFocusCsv(csv, rows, 42);
    const samples: Record<'import' | 'floor', ChildResult[]> = { import: [], floor: [] };
    for (let i = 0; i < opts.runs; i++) {
      const order: ('import' | 'floor')[] = i % 2 === 0 ? ['import', 'floor'] : ['floor', 'import'];
      for (const mode of order) samples[mode].push(await runChild(mode, csv, opts.workDir));
    }
    const of = (mode: 'import' | 'floor') => ({
      ms: median(samples[mode].map((s) => s.ms)),
      peakRssMb: median(samples[mode].map((s) => s.peakRssMb)),
    });
    const [imported, floor] = [of('import'), of('floor')];
    points.push({
      rows,
      storedRows: samples.import[0]?.rows ?? 0,
      import: imported,
      floor,
      timeRatio: Math.round((imported.ms / floor.ms) * 100) / 100,
      rssRatio: Math.round((imported.peakRssMb / floor.peakRssMb) * 100) / 100,
    });
  }
  return { runs: opts.runs, points };
}

export function printImportGrowth(growth: ImportGrowthBench): void {
  console.log(`\nFOCUS import growth, median of ${growth.runs} (targets: time ≤ 1.3×, peak RSS ≤ 1.2× the floor's):`);
  console.log('  rows        import ms  floor ms  ratio   import MB  floor MB  ratio');
  for (const p of growth.points) {
    console.log(
      `  ${p.rows.toLocaleString('en-US').padEnd(10)} ${String(p.import.ms).padStart(10)} ${String(p.floor.ms).padStart(9)} ${`${p.timeRatio}×`.padStart(6)} ${String(p.import.peakRssMb).padStart(11)} ${String(p.floor.peakRssMb).padStart(9)} ${`${p.rssRatio}×`.padStart(6)}`,
    );
  }
}
