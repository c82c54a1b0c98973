// The GPU check job's metrics reads at fleet scale: its readers (the idle check's minute samples
// of the last day, the sweep caps' five-minute samples of the week, the hourly anomaly judgement's
// hourly samples of eight days) through the one rolling-window source a configured Prometheus is
// wrapped in, as the job runs them, a first run and a follow-up 15 minutes later. Per reader:
// HTTP queries, bytes and time of the follow-up, the steady state at one check every 15 minutes.

import type { MetricsRange } from '../src/domain/gpu-metrics.js';
import { HOURLY_PAST_DAYS } from '../src/checks/anomalies/hourly-runaway.js';
import { PrometheusGpuSource } from '../src/providers/prometheus/prometheus-source.js';
import { RollingWindowMetrics } from '../src/providers/rolling-window-metrics.js';
import { benchFleet, startBenchPrometheus } from './gpu-metrics-servers.js';

const HOUR = 3600;
const FOLLOW_UP_SECONDS = 15 * 60;

interface Reader {
  name: string;
  /** The reader's window at `now` (epoch seconds), as src/snapshots/gpu-windows.ts and hourly-gpu-spend.ts draw it. */
  window: (now: number) => MetricsRange;
}

const READERS: readonly Reader[] = [
  { name: 'idle check (24 h, 1-minute steps)', window: (now) => onGrid(now, 60, 24 * HOUR) },
  { name: 'sweep caps (168 h, 5-minute steps)', window: (now) => onGrid(now, 300, 168 * HOUR) },
  {
    name: `hourly anomalies (${HOURLY_PAST_DAYS + 1} days, hourly steps)`,
    window: (now) => onGrid(now, HOUR, (HOURLY_PAST_DAYS + 1) * 24 * HOUR),
  },
];

function onGrid(now: number, step: number, seconds: number): MetricsRange {
  const end = Math.floor(now / step) * step;
  return { start: end - seconds, end, stepSeconds: step };
}

export interface CheckRead {
  reader: string;
  requests: number;
  bytes: number;
  ms: number;
}

export interface GpuCheckReadsBench {
  gpus: number;
  hosts: number;
  first: CheckRead[];
  followUp: CheckRead[];
}

export async function benchGpuCheckReads(opts: { gpus: number }): Promise<GpuCheckReadsBench> {
  const prom = await startBenchPrometheus(benchFleet(opts.gpus, 8));
  const source = new RollingWindowMetrics(new PrometheusGpuSource({ id: 'bench', url: prom.url, timeoutMs: 600_000 }));
  const run = async (now: number): Promise<CheckRead[]> => {
    const reads: CheckRead[] = [];
    for (const reader of READERS) {
      const before = { ...prom.counts };
      const started = performance.now();
      await source.fetch(reader.window(now));
      reads.push({
        reader: reader.name,
        requests: prom.counts.requests - before.requests,
        bytes: prom.counts.bytes - before.bytes,
        ms: Math.round(performance.now() - started),
      });
    }
    return reads;
  };
  const now = Math.floor(Date.now() / 1000);
  const first = await run(now);
  const followUp = await run(now + FOLLOW_UP_SECONDS);
  await prom.close();
  return { gpus: opts.gpus, hosts: Math.ceil(opts.gpus / 8), first, followUp };
}

export function printGpuCheckReads(b: GpuCheckReadsBench): void {
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  console.log(`\nGPU check job's metrics reads, ${b.gpus} GPUs on ${b.hosts} machines (fake Prometheus, rolling-window source):`);
  console.log('| reader | first run: queries / MiB / ms | +15 min: queries / MiB / ms |');
  console.log('|---|---|---|');
  b.first.forEach((f, i) => {
    const u = b.followUp[i]!;
    console.log(`| ${f.reader} | ${f.requests} / ${mib(f.bytes)} / ${f.ms} | ${u.requests} / ${mib(u.bytes)} / ${u.ms} |`);
  });
}
