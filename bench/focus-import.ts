// FOCUS import benchmark: the real import (DuckDB aggregation + team mapping + SQLite) against the
// "floor", one plain DuckDB query that reads the same CSV and groups it the same way. Each run
// spawns both as separate processes (alternating which goes first), so peak RSS and wall time are
// measured separately. Target: import <= 1.2x floor, import peak RSS <= 350 MB.

import { execFile } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateFocusCsv } from '../scripts/generate-focus.js';
import type { ChildResult } from './focus-import-child.js';
import { median } from './stats.js';

const run = promisify(execFile);

export interface FocusImportBench {
  rows: number;
  runs: number;
  csvMb: number;
  generateMs: number;
  /** Aggregated daily rows stored. */
  storedRows: number;
  import: { ms: number; rowsPerSec: number; peakRssMb: number };
  floor: { ms: number; peakRssMb: number };
  /** import ms / floor ms (medians). */
  ratio: number;
  samples: { import: ChildResult[]; floor: ChildResult[] };
}

export async function benchFocusImport(opts: { rows: number; runs: number; workDir: string }): Promise<FocusImportBench> {
  mkdirSync(opts.workDir, { recursive: true });
  const csv = join(opts.workDir, `focus-${opts.rows}.csv`);
  const generateStarted = performance.now();
  await generateFocusCsv(csv, opts.rows, 42);
  const generateMs = Math.round(performance.now() - generateStarted);

  const samples: { import: ChildResult[]; floor: ChildResult[] } = { import: [], floor: [] };
  for (let i = 0; i < opts.runs; i++) {
    const order: ('import' | 'floor')[] = i % 2 === 0 ? ['import', 'floor'] : ['floor', 'import'];
    for (const mode of order) samples[mode].push(await runChild(mode, csv, opts.workDir));
  }

  const importMs = median(samples.import.map((s) => s.ms));
  const floorMs = median(samples.floor.map((s) => s.ms));
  return {
    rows: opts.rows,
    runs: opts.runs,
    csvMb: Math.round(statSync(csv).size / 1e5) / 10,
    generateMs,
    storedRows: samples.import[0]?.rows ?? 0,
    import: {
      ms: importMs,
      rowsPerSec: Math.round(opts.rows / (importMs / 1000)),
      peakRssMb: median(samples.import.map((s) => s.peakRssMb)),
    },
    floor: { ms: floorMs, peakRssMb: median(samples.floor.map((s) => s.peakRssMb)) },
    ratio: Math.round((importMs / floorMs) * 100) / 100,
    samples,
  };
}

/** One measured run of the import or its floor, in a process of its own (its peak RSS its own). */
export async function runChild(mode: 'import' | 'floor', csv: string, workDir: string): Promise<ChildResult> {
  const child = fileURLToPath(new URL('./focus-import-child.js', import.meta.url));
  const { stdout } = await run(process.execPath, [child, mode, csv, workDir], { maxBuffer: 1024 * 1024 });
  const line = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as ChildResult;
}
