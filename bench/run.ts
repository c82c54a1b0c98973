// `npm run bench`: every benchmark, medians of several runs, printed with the machine they ran on.
// Results also land in bench/out/results.json; BENCHMARKS.md records the figures.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchBudgetCheck } from './budget-check.js';
import { benchFocusImport } from './focus-import.js';

const OUT = fileURLToPath(new URL('../../bench/out/', import.meta.url));
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`machine: ${machine}`);

const focus = await benchFocusImport({ rows, runs, workDir: join(OUT, 'work') });
console.log(`\nFOCUS import of ${rows.toLocaleString('en-US')} rows (${focus.csvMb} MB CSV), median of ${runs}:`);
console.log(`  burnrate import : ${focus.import.ms} ms, ${focus.import.rowsPerSec.toLocaleString('en-US')} rows/s, peak RSS ${focus.import.peakRssMb} MB (${focus.storedRows} daily rows stored)`);
console.log(`  DuckDB floor    : ${focus.floor.ms} ms, peak RSS ${focus.floor.peakRssMb} MB`);
console.log(`  ratio           : ${focus.ratio}x (target ≤ 1.5x; RSS target < 400 MB)`);

const budget = await benchBudgetCheck({ teams: 1000, days: 400, runs });
console.log(`\nBudget checks, ${budget.teams} teams × ${budget.days} days, median of ${runs}:`);
console.log(`  pure checks     : ${budget.checkMs.toFixed(1)} ms (${budget.findings} findings; target < 200 ms)`);
console.log(`  whole job       : ${budget.jobMs.toFixed(1)} ms (load from SQLite, check, reconcile)`);

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'results.json'), `${JSON.stringify({ machine, at: new Date().toISOString(), focus: { ...focus, samples: undefined }, budget }, null, 2)}\n`);
