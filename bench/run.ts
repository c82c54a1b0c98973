// `npm run bench`: every benchmark, medians of several runs, printed with the machine they ran on.
// Results also land in bench/out/results.json; BENCHMARKS.md records the figures.
// BENCH_ONLY=cli,serve,focus,growth,budget,forecast,anomalies,slack,idle,gpufetch,gpucheck,kube,soak,replicas runs only those (results then go to bench/out/results.<names>.json).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchBudgetCheck, type BudgetBenchResult } from './budget-check.js';
import { benchCliStart, printCliStart, type CliStartBench } from './cli-start.js';
import { benchDeliverySoak, printDeliverySoak, type SoakBench } from './delivery-soak-bench.js';
import { benchFocusImport } from './focus-import.js';
import { benchImportGrowth, printImportGrowth, type ImportGrowthBench } from './import-growth.js';
import { printAnomalyBacktest, runAnomalyBacktest, type AnomalyBacktestRow } from './anomaly-backtest.js';
import { printHourlyAnomalyBacktest, runHourlyAnomalyBacktest, type HourlyBacktestRow } from './anomaly-hourly-backtest.js';
import { printForecastBacktest, runForecastBacktest, type BacktestRow } from './forecast-backtest.js';
import { benchGpuCheckReads, printGpuCheckReads, type GpuCheckReadsBench } from './gpu-check-reads.js';
import { benchGpuFetch, type GpuFetchBench } from './gpu-fetch.js';
import { benchIdleDetection, type IdleDetectionBench } from './idle-detection.js';
import { benchKubeInventory, printKubeInventory, type KubeInventoryBench } from './kube-inventory.js';
import { benchReplicas, printReplicas, type ReplicaBench } from './replicas.js';
import { benchServeStart, printServeStart, type ServeStartBench } from './serve-start.js';
import { benchSlackAck, type SlackAckBench } from './slack-ack.js';

const OUT = fileURLToPath(new URL('../../bench/out/', import.meta.url));
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const BENCHES = [
  'cli',
  'serve',
  'focus',
  'growth',
  'budget',
  'forecast',
  'anomalies',
  'slack',
  'idle',
  'gpufetch',
  'gpucheck',
  'kube',
  'soak',
  'replicas',
] as const;
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = only.filter((name) => !(BENCHES as readonly string[]).includes(name));
if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown benchmark ${unknown.join(', ')} (known: ${BENCHES.join(', ')})`);
const selected = (name: (typeof BENCHES)[number]) => only.length === 0 || only.includes(name);
/** A comma-separated list of numbers from the environment, or the fallback. */
const numbers = (value: string | undefined, fallback: number[]) =>
  value
    ? value
        .split(',')
        .map((v) => Number(v.trim()))
        .filter((v) => v > 0)
    : fallback;

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`machine: ${machine}`);

// BENCH_CLI_ROUNDS changes the rounds of the CLI cold start (7 by default).
let cli: CliStartBench | undefined;
if (selected('cli')) {
  cli = await benchCliStart({ rounds: Number(process.env.BENCH_CLI_ROUNDS ?? 7) });
  printCliStart(cli);
}

let serve: ServeStartBench | undefined;
if (selected('serve')) {
  serve = await benchServeStart({ runs });
  printServeStart(serve);
}

let focus: Awaited<ReturnType<typeof benchFocusImport>> | undefined;
if (selected('focus')) {
  focus = await benchFocusImport({ rows, runs, workDir: join(OUT, 'work') });
  console.log(`\nFOCUS import of ${rows.toLocaleString('en-US')} rows (${focus.csvMb} MB CSV), median of ${runs}:`);
  console.log(
    `  burnrate import : ${focus.import.ms} ms, ${focus.import.rowsPerSec.toLocaleString('en-US')} rows/s, peak RSS ${focus.import.peakRssMb} MB (${focus.storedRows} daily rows stored)`,
  );
  console.log(`  DuckDB floor    : ${focus.floor.ms} ms, peak RSS ${focus.floor.peakRssMb} MB`);
  console.log(`  ratio           : ${focus.ratio}x (target ≤ 1.2x; RSS target ≤ 350 MB)`);
}

// BENCH_GROWTH_ROWS changes the import growth's file sizes (250k, 1M, 4M rows by default), BENCH_GROWTH_RUNS its runs (3).
let growth: ImportGrowthBench | undefined;
if (selected('growth')) {
  growth = await benchImportGrowth({
    sizes: numbers(process.env.BENCH_GROWTH_ROWS, [250_000, 1_000_000, 4_000_000]),
    runs: Number(process.env.BENCH_GROWTH_RUNS ?? 3),
    workDir: join(OUT, 'work'),
  });
  printImportGrowth(growth);
}

let budget: BudgetBenchResult | undefined;
if (selected('budget')) {
  budget = await benchBudgetCheck({ teams: 1000, days: 400, runs });
  console.log(`\nBudget checks, ${budget.teams} teams × ${budget.days} days, median of ${runs}:`);
  console.log(
    `  pure checks     : ${budget.checkMs.toFixed(1)} ms, ${budget.checkCpuMs.toFixed(1)} ms of CPU (${budget.findings} findings)`,
  );
  console.log(
    `  whole job       : ${budget.jobMs.toFixed(1)} ms, ${budget.jobCpuMs.toFixed(1)} ms of CPU (load from SQLite, check, reconcile; target < 200 ms)`,
  );
}

let forecast: BacktestRow[] | undefined;
if (selected('forecast')) {
  forecast = runForecastBacktest();
  printForecastBacktest(forecast);
}

let anomalies: { daily: AnomalyBacktestRow[]; hourly: HourlyBacktestRow[] } | undefined;
if (selected('anomalies')) {
  anomalies = { daily: runAnomalyBacktest(), hourly: runHourlyAnomalyBacktest() };
  printAnomalyBacktest(anomalies.daily);
  printHourlyAnomalyBacktest(anomalies.hourly);
}

let slack: SlackAckBench | undefined;
if (selected('slack')) {
  slack = await benchSlackAck({
    requests: Number(process.env.BENCH_SLACK_REQUESTS ?? 2000),
    concurrency: Number(process.env.BENCH_SLACK_CONCURRENCY ?? 32),
    rounds: Number(process.env.BENCH_SLACK_ROUNDS ?? 3),
    open: {
      rates: numbers(process.env.BENCH_SLACK_RATES, [10, 50, 100, 200]),
      seconds: Number(process.env.BENCH_SLACK_OPEN_SECONDS ?? 10),
      warmupSeconds: Number(process.env.BENCH_SLACK_OPEN_WARMUP_SECONDS ?? 2),
      rounds: Number(process.env.BENCH_SLACK_OPEN_ROUNDS ?? 3),
    },
  });
  printSlack(slack);
}

// BENCH_IDLE_GPUS and BENCH_IDLE_DAYS change the fleet: 10,000 GPUs × 7 days by default.
let idle: IdleDetectionBench | undefined;
if (selected('idle')) {
  idle = await benchIdleDetection({
    gpus: Number(process.env.BENCH_IDLE_GPUS ?? 10_000),
    days: Number(process.env.BENCH_IDLE_DAYS ?? 7),
    runs,
  });
  const row = (name: string, r: { ms: number; samplesPerSec: number }, ratio: string) =>
    console.log(
      `  ${name.padEnd(24)}${`${r.ms.toFixed(0)} ms`.padStart(9)}${`${(r.samplesPerSec / 1e6).toFixed(0)} M samples/s`.padStart(20)}  ${ratio}`,
    );
  console.log(
    `\nGPU idle detection, ${idle.gpus.toLocaleString('en-US')} GPUs × ${idle.days} days of 1-minute samples (${(idle.samples / 1e6).toFixed(1)} M samples), median of ${runs}:`,
  );
  console.log(`                             median          throughput  vs floor`);
  row('detect, a batch a call', idle.detect, `${idle.ratio}x, ${idle.cpuRatio}x in CPU time (target ≤ 2x)`);
  row('detect, a series a call', idle.single, `${idle.singleRatio}x, ${idle.cpuSingleRatio}x in CPU time`);
  row('floor (count < 5%)', idle.floor, '');
  console.log(`  found ${idle.intervals.idle} idle, ${idle.intervals.stalled} stalled, ${idle.intervals.unknown} unknown intervals`);
  console.log(
    `  peak RSS ${idle.peakRssMb} MB (${idle.startRssMb} MB at start): times shared, ${idle.layout.timesKiB} KiB; ${idle.layout.batchMiB} MiB per batch of ${idle.batch} GPUs, against ${idle.layout.allAtOnceMiB} MiB for all at once`,
  );
}

// BENCH_FETCH_GPUS changes the fleet (1,000 GPUs by default); the window is 24 h, the follow-up 15 minutes later.
let gpuFetch: GpuFetchBench | undefined;
if (selected('gpufetch')) {
  gpuFetch = await benchGpuFetch({ gpus: Number(process.env.BENCH_FETCH_GPUS ?? 1000), lookbackHours: 24, followUpMinutes: 15 });
  printGpuFetch(gpuFetch);
}

// BENCH_CHECK_GPUS changes the fleet (8,000 GPUs on 1,000 machines by default).
let gpuCheck: GpuCheckReadsBench | undefined;
if (selected('gpucheck')) {
  gpuCheck = await benchGpuCheckReads({ gpus: Number(process.env.BENCH_CHECK_GPUS ?? 8000) });
  printGpuCheckReads(gpuCheck);
}

// BENCH_KUBE_NODES and BENCH_KUBE_PODS change the cluster (1,000 GPU nodes, 10,000 GPU pods by default).
let kube: KubeInventoryBench | undefined;
if (selected('kube')) {
  kube = await benchKubeInventory({
    nodes: Number(process.env.BENCH_KUBE_NODES ?? 1000),
    pods: Number(process.env.BENCH_KUBE_PODS ?? 10_000),
    runs,
  });
  printKubeInventory(kube);
}

// BENCH_SOAK_DAYS, BENCH_SOAK_TEAMS, BENCH_SOAK_SEED and BENCH_SOAK_SLOW_MAX_S change the soak (30 days, 40 teams,
// seed 1, slow answers up to 90 s); BENCH_SOAK_SKEW_S and BENCH_SOAK_STALL_GAP_H the skewed scenario (the second
// process 150 s ahead, a stall longer than the lease every 4 h on average); it runs BENCH_RUNS seeds. A broken promise prints FAIL and fails the run.
let soak: SoakBench | undefined;
if (selected('soak')) {
  soak = await benchDeliverySoak({
    days: Number(process.env.BENCH_SOAK_DAYS ?? 30),
    teams: Number(process.env.BENCH_SOAK_TEAMS ?? 40),
    seed: Number(process.env.BENCH_SOAK_SEED ?? 1),
    runs,
    slowAnswerMaxMs: Number(process.env.BENCH_SOAK_SLOW_MAX_S ?? 90) * 1000,
    clockSkewMs: Number(process.env.BENCH_SOAK_SKEW_S ?? 150) * 1000,
    stallMeanGapMs: Number(process.env.BENCH_SOAK_STALL_GAP_H ?? 4) * 3_600_000,
  });
  printDeliverySoak(soak);
  if (soak.failures.length > 0) process.exitCode = 1;
}

mkdirSync(OUT, { recursive: true });
// BENCH_REPLICA_REQUESTS, BENCH_REPLICA_CONCURRENCY and BENCH_REPLICA_ROUNDS change the load (400 commands, 16 in flight, 3 rounds).
let replicas: ReplicaBench | null | undefined;
if (selected('replicas')) {
  replicas = await benchReplicas({
    requests: Number(process.env.BENCH_REPLICA_REQUESTS ?? 400),
    concurrency: Number(process.env.BENCH_REPLICA_CONCURRENCY ?? 16),
    rounds: Number(process.env.BENCH_REPLICA_ROUNDS ?? 3),
  });
  if (replicas) printReplicas(replicas);
}

const file = only.length === 0 ? 'results.json' : `results.${only.join('.')}.json`;
writeFileSync(
  join(OUT, file),
  `${JSON.stringify({ machine, at: new Date().toISOString(), cli, serve, focus: focus && { ...focus, samples: undefined }, growth, budget, forecast, anomalies, slack, idle, gpuFetch, gpuCheck, kube, soak, replicas }, null, 2)}\n`,
);

function printSlack(slack: SlackAckBench): void {
  const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(10);
  const cpuMs = (v: number | null) => (v === null ? '—' : `${v.toFixed(2)} ms`);
  const pct = (v: number | null) => (v === null ? '—' : `${v.toFixed(0)}%`);
  const codes = (c: Record<string, number>) =>
    Object.keys(c).length === 0
      ? ''
      : ` (${Object.entries(c)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')})`;
  console.log(
    `\nSlack slash commands on loopback, closed loop (throughput ceiling): ${slack.rounds} rounds × ${slack.requests} requests, ${slack.concurrency} in flight (${slack.demoDays} days of demo data, ${slack.spendRows} daily rows; burnrate ${slack.answers}); pooled percentiles:`,
  );
  console.log(
    `                     ack p50     ack p95     ack p99  round p99 med       req/s  server CPU/req  acking thread  other work  errors`,
  );
  for (const [name, r] of [
    ['burnrate', slack.burnrate],
    ['bare Bolt', slack.bare],
  ] as const) {
    const errors = r.non200 + r.transportErrors + ('missingAnswers' in r ? r.missingAnswers + r.errorAnswers : 0);
    console.log(
      `  ${name.padEnd(16)}${ms(r.ack.p50)}  ${ms(r.ack.p95)}  ${ms(r.ack.p99)}  ${ms(r.ack.perRoundP99Median).padStart(13)}  ${String(r.throughputRps).padStart(10)}  ${cpuMs(r.serverCpuMsPerRequest).padStart(14)}  ${cpuMs(r.ackingCpuMsPerRequest).padStart(13)}  ${pct(r.otherCpuPct).padStart(10)}  ${errors}${codes(r.transportErrorCodes)}`,
    );
  }
  console.log(`  ack p99 ratio   : ${slack.p99Ratio}x pooled, ${slack.perRoundP99Ratio}x from per-round medians (target ≤ 1.3x)`);
  console.log(
    `  full answer     : p50 ${slack.burnrate.answer.p50.toFixed(1)} ms, p99 ${slack.burnrate.answer.p99.toFixed(1)} ms (per-round p99 median ${slack.burnrate.answer.perRoundP99Median.toFixed(1)} ms; target p99 < 500 ms), ${slack.burnrate.missingAnswers} missing, ${slack.burnrate.errorAnswers} error answers, ${slack.burnrate.turnedAway} turned away (busy)`,
  );

  const open = slack.openLoop;
  if (!open) return;
  console.log(
    `\nSlack slash commands, open loop (fixed offered rate, Poisson arrivals): ${open.rounds} rounds × ${open.seconds} s per rate and server after ${open.warmupSeconds} s warm-up each; pooled percentiles:`,
  );
  console.log(
    `   req/s   sent at   burnrate ack p50/p99     bare ack p50/p99  p99 ratio  round p99 med burnrate/bare, ratio   answer p50/p99  answer round p99 med`,
  );
  for (const r of open.results) {
    const b = r.burnrate;
    const pair = (x: number, y: number) => `${x.toFixed(1)} / ${y.toFixed(1)} ms`;
    console.log(
      `  ${String(r.rate).padStart(6)}  ${String(b.achievedRps).padStart(8)}  ${pair(b.ack.p50, b.ack.p99).padStart(19)}  ${pair(r.bare.ack.p50, r.bare.ack.p99).padStart(19)}  ${`${r.p99Ratio}x`.padStart(9)}  ${`${pair(b.ack.perRoundP99Median, r.bare.ack.perRoundP99Median)}, ${r.perRoundP99Ratio}x`.padStart(35)}  ${pair(b.answer.p50, b.answer.p99).padStart(17)}  ${`${b.answer.perRoundP99Median.toFixed(1)} ms`.padStart(20)}`,
    );
  }
  console.log(
    `   req/s   CPU/req burnrate/bare   acking thread burnrate/bare   busy burnrate/bare  send lag p99   other work burnrate/bare  errors  turned away`,
  );
  for (const r of open.results) {
    const b = r.burnrate;
    const errors = b.non200 + b.transportErrors + b.missingAnswers + b.errorAnswers + r.bare.non200 + r.bare.transportErrors;
    console.log(
      `  ${String(r.rate).padStart(6)}  ${`${cpuMs(b.serverCpuMsPerRequest)} / ${cpuMs(r.bare.serverCpuMsPerRequest)}`.padStart(22)}  ${`${cpuMs(b.ackingCpuMsPerRequest)} / ${cpuMs(r.bare.ackingCpuMsPerRequest)}`.padStart(28)}  ${`${pct(b.serverBusyPct)} / ${pct(r.bare.serverBusyPct)}`.padStart(19)}  ${`${Math.max(b.sendLagP99, r.bare.sendLagP99).toFixed(1)} ms`.padStart(12)}  ${`${pct(b.otherCpuPct)} / ${pct(r.bare.otherCpuPct)}`.padStart(25)}  ${String(errors).padStart(6)}${codes(mergeCodes(b.transportErrorCodes, r.bare.transportErrorCodes))}  ${String(b.turnedAway).padStart(11)}`,
    );
  }
  console.log(
    `  targets: ack p99 ratio ≤ 1.3x, answer p99 < 500 ms. busy: server CPU, % of a core. send lag: how late the load generator sent`,
  );
  console.log(`  against its schedule. other work: CPU used by anything but the benchmark's four processes, % of a core (2 cores in all).`);
}

function printGpuFetch(r: GpuFetchBench): void {
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1)} MiB`;
  console.log(
    `\nGPU metrics per idle-GPU check, ${r.gpus.toLocaleString('en-US')} GPUs, ${r.lookbackHours} h window at 1-minute steps (wall time includes the local backend):`,
  );
  console.log(`  Prometheus (DCGM)            queries       bytes      time  series`);
  for (const [name, run] of [
    ['first run', r.prometheus.first],
    [`+${r.followUpMinutes} min, rolling window`, r.prometheus.followUp],
    [`+${r.followUpMinutes} min, full re-read`, r.prometheus.fullReread],
  ] as const)
    console.log(
      `  ${name.padEnd(28)}${String(run.requests).padStart(7)}${mb(run.bytes).padStart(12)}${`${run.ms} ms`.padStart(10)}${String(run.series).padStart(8)}`,
    );
  const cw = r.cloudwatch;
  console.log(
    `  CloudWatch (nvidia_smi)      ListMetrics  GetMetricData  metrics requested (first pages)  datapoints       bytes      time`,
  );
  for (const [name, run] of [
    ['first run', cw.first],
    [`+${r.followUpMinutes} min, rolling window`, cw.followUp],
    [`+${r.followUpMinutes} min, full re-read`, cw.fullReread],
  ] as const)
    console.log(
      `  ${name.padEnd(28)}${String(run.listMetricsCalls).padStart(11)}${String(run.getMetricDataCalls).padStart(15)}${`${run.metricsRequested.toLocaleString('en-US')} (${run.metricsRequestedFirstPages.toLocaleString('en-US')})`.padStart(33)}${run.datapoints.toLocaleString('en-US').padStart(12)}${mb(run.bytes).padStart(12)}${`${run.ms} ms`.padStart(10)}`,
    );
  console.log(
    `  GetMetricData at $${cw.usdPer1000Metrics} per 1,000 metrics requested (AWS price list, us-east-1, at the time of writing):`,
  );
  console.log(`  (low: a metric counted once per call batch; high: again on every NextToken continuation)`);
  console.log(
    `  first run $${cw.usdFirstRun.low}–$${cw.usdFirstRun.high}; a follow-up check $${cw.usdPerCheck.low}–$${cw.usdPerCheck.high}; 96 checks a day for 30 days $${cw.usdPerMonth.low}–$${cw.usdPerMonth.high}`,
  );
}

function mergeCodes(...counts: Record<string, number>[]): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const c of counts) for (const [k, v] of Object.entries(c)) merged[k] = (merged[k] ?? 0) + v;
  return merged;
}
