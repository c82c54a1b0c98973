// `npm run bench`: every benchmark, medians of several runs, printed with the machine they ran on.
// Results also land in bench/out/results.json; BENCHMARKS.md records the figures.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchBudgetCheck } from './budget-check.js';
import { benchFocusImport } from './focus-import.js';
import { benchSlackAck } from './slack-ack.js';

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

const slackOpts = {
  requests: Number(process.env.BENCH_SLACK_REQUESTS ?? 2000),
  concurrency: Number(process.env.BENCH_SLACK_CONCURRENCY ?? 32),
  rounds: Number(process.env.BENCH_SLACK_ROUNDS ?? 3),
};
const slack = await benchSlackAck(slackOpts);
const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(10);
console.log(
  `\nSlack slash commands on loopback, ${slack.rounds} rounds × ${slack.requests} requests, ${slack.concurrency} in flight (${slack.demoDays} days of demo data, ${slack.spendRows} daily rows); pooled percentiles:`,
);
console.log(`                     ack p50     ack p95     ack p99  round p99 med       req/s  server CPU/req  errors`);
for (const [name, r] of [['burnrate', slack.burnrate], ['bare Bolt', slack.bare]] as const) {
  const errors = r.non200 + r.transportErrors + ('missingAnswers' in r ? r.missingAnswers + r.errorAnswers : 0);
  const cpu = r.serverCpuMsPerRequest === null ? '—' : `${r.serverCpuMsPerRequest.toFixed(2)} ms`;
  console.log(`  ${name.padEnd(16)}${ms(r.ack.p50)}  ${ms(r.ack.p95)}  ${ms(r.ack.p99)}  ${ms(r.ack.perRoundP99Median).padStart(13)}  ${String(r.throughputRps).padStart(10)}  ${cpu.padStart(14)}  ${errors}`);
}
console.log(`  ack p99 ratio   : ${slack.p99Ratio}x pooled, ${slack.perRoundP99Ratio}x from per-round medians (target ≤ 1.3x)`);
console.log(
  `  full answer     : p50 ${slack.burnrate.answer.p50.toFixed(1)} ms, p99 ${slack.burnrate.answer.p99.toFixed(1)} ms (per-round p99 median ${slack.burnrate.answer.perRoundP99Median.toFixed(1)} ms; target p99 < 500 ms), ${slack.burnrate.missingAnswers} missing, ${slack.burnrate.errorAnswers} error answers`,
);

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'results.json'), `${JSON.stringify({ machine, at: new Date().toISOString(), focus: { ...focus, samples: undefined }, budget, slack }, null, 2)}\n`);
