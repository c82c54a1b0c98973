// serve start: how soon a person is answered after `burnrate serve` starts, beside a bare Bolt app.
// burnrate runs as a user runs it (the built CLI, Slack in HTTP mode, the embedded demo organisation
// in a fresh folder, so the first run seeds the store, runs every check, draws the review charts and
// queues the alerts); the bare Bolt app (bench/slack-ack-server.ts bare) only acks. From spawn on,
// the bench sends a signed `/burnrate spend` every 20 ms until one is acked (first ack: when, and how
// long that one waited), and asks /healthz every 25 ms until serve says it has started: those probes
// wait behind whatever holds serve's event loop, so their worst latency is the longest stall during
// the first run. Once started, serve's own event-loop delay (prom-client's monitorEventLoopDelay
// histogram in /metrics, which covers the whole start at its first scrape) is read once: a lower
// bound, since the histogram's timer first fires on the loop's first turn after /metrics is set up,
// so a stall that began before that turn is missed; the probes see it. Runs alternate burnrate and
// the bare app; medians.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { BENCH_BOT_TOKEN, BENCH_SIGNING_SECRET, signedCommand } from './slack-ack.js';
import { median } from './stats.js';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));
const BARE = fileURLToPath(new URL('./slack-ack-server.js', import.meta.url));
const COMMAND_EVERY_MS = 20;
const PROBE_EVERY_MS = 25;
const START_LIMIT_MS = 180_000;

export interface ServeStartRun {
  /** Spawn -> the first slash command acked (HTTP 200), ms. */
  firstAckMs: number;
  /** How long that first acked command waited for its ack, ms. */
  firstAckLatencyMs: number;
  /** burnrate: spawn -> "health: ..." (first checks done, scheduler on), ms. */
  startedMs?: number;
  /** burnrate: the slowest /healthz answer while starting, ms (the longest the loop was held). */
  probeMaxMs?: number;
  /** burnrate: /healthz answers while starting, p99, ms. */
  probeP99Ms?: number;
  /** burnrate: serve's event-loop delay from /metrics at its first scrape (the whole start), ms. */
  loopDelayMaxMs?: number;
  loopDelayP99Ms?: number;
}

export interface ServeStartBench {
  runs: number;
  burnrate: Required<ServeStartRun>;
  bare: Pick<ServeStartRun, 'firstAckMs' | 'firstAckLatencyMs'>;
  /** burnrate's first ack ÷ the bare app's (medians). */
  firstAckRatio: number;
}

export async function benchServeStart(opts: { runs: number }): Promise<ServeStartBench> {
  const sink = await startSink();
  try {
    const burnrate: ServeStartRun[] = [];
    const bare: ServeStartRun[] = [];
    for (let i = 0; i < opts.runs; i++)
      for (const which of i % 2 === 0 ? ['burnrate', 'bare'] : ['bare', 'burnrate'])
        if (which === 'burnrate') burnrate.push(await runBurnrate(sink.url));
        else bare.push(await runBare(sink.url));
    const med = (runs: ServeStartRun[], key: keyof ServeStartRun) => Math.round(median(runs.map((r) => r[key] ?? NaN)));
    const b = {
      firstAckMs: med(burnrate, 'firstAckMs'),
      firstAckLatencyMs: med(burnrate, 'firstAckLatencyMs'),
      startedMs: med(burnrate, 'startedMs'),
      probeMaxMs: med(burnrate, 'probeMaxMs'),
      probeP99Ms: med(burnrate, 'probeP99Ms'),
      loopDelayMaxMs: med(burnrate, 'loopDelayMaxMs'),
      loopDelayP99Ms: med(burnrate, 'loopDelayP99Ms'),
    };
    const f = { firstAckMs: med(bare, 'firstAckMs'), firstAckLatencyMs: med(bare, 'firstAckLatencyMs') };
    return { runs: opts.runs, burnrate: b, bare: f, firstAckRatio: Math.round((b.firstAckMs / f.firstAckMs) * 100) / 100 };
  } finally {
    await new Promise((resolve) => sink.server.close(resolve));
  }
}

async function runBurnrate(sinkUrl: string): Promise<ServeStartRun> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], {
    cwd: mkdtempSync(join(tmpdir(), 'burnrate-bench-serve-')),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'error',
      SLACK_BOT_TOKEN: BENCH_BOT_TOKEN,
      SLACK_SIGNING_SECRET: BENCH_SIGNING_SECRET,
      // Nothing listens there: the commands answer through response_url, and posting alerts fails quietly.
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      METRICS_PORT: String(metricsPort),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let startedMs: number | null = null;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('health: ')) startedMs ??= performance.now() - started;
    });
    const probes: number[] = [];
    const probing = (async () => {
      while (startedMs === null && performance.now() - started < START_LIMIT_MS) {
        const sent = performance.now();
        const ok = await get(port, '/healthz').catch(() => false);
        if (ok) probes.push(performance.now() - sent);
        await sleep(PROBE_EVERY_MS);
      }
    })();
    const ack = await firstAck(port, sinkUrl, started, child);
    await probing;
    if (startedMs === null) throw new Error('burnrate serve did not start');
    const lag = await loopDelay(metricsPort);
    const sorted = [...probes].sort((x, y) => x - y);
    return {
      ...ack,
      startedMs,
      probeMaxMs: sorted.at(-1) ?? NaN,
      probeP99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN,
      ...lag,
    };
  } finally {
    await stop(child);
  }
}

async function runBare(sinkUrl: string): Promise<ServeStartRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [BARE, 'bare'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'error' },
  });
  try {
    // The bare app listens on a port of its own choosing and prints it.
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
      child.once('exit', () => reject(new Error('the bare Bolt app exited')));
    });
    return await firstAck(port, sinkUrl, started, child);
  } finally {
    await stop(child);
  }
}

/** Sends a signed slash command every 20 ms, each on its own connection, until one is acked. */
async function firstAck(
  port: number,
  sinkUrl: string,
  started: number,
  child: ChildProcess,
): Promise<Pick<ServeStartRun, 'firstAckMs' | 'firstAckLatencyMs'>> {
  return new Promise((resolve, reject) => {
    let done = false;
    let id = 0;
    const exited = () => reject(new Error('the server exited before acking'));
    child.once('exit', exited);
    const send = () => {
      if (done) return;
      if (performance.now() - started > START_LIMIT_MS) {
        done = true;
        reject(new Error('no slash command acked'));
        return;
      }
      const { body, headers } = signedCommand('spend', sinkUrl, ++id);
      const sent = performance.now();
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/slack/events', headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (done || res.statusCode !== 200) return;
          done = true;
          child.off('exit', exited);
          const now = performance.now();
          resolve({ firstAckMs: now - started, firstAckLatencyMs: now - sent });
        });
      });
      req.on('error', () => undefined);
      req.end(body);
      setTimeout(send, COMMAND_EVERY_MS);
    };
    send();
  });
}

/** serve's event-loop delay since start, from prom-client's default metrics. */
async function loopDelay(port: number): Promise<Pick<ServeStartRun, 'loopDelayMaxMs' | 'loopDelayP99Ms'>> {
  const text = await new Promise<string>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve(data));
    })
      .on('error', reject)
      .end();
  });
  const value = (name: string) =>
    Number(/^(\S+) (\S+)$/m.exec(text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '')?.[2] ?? NaN) * 1000;
  return { loopDelayMaxMs: value('nodejs_eventloop_lag_max_seconds'), loopDelayP99Ms: value('nodejs_eventloop_lag_p99_seconds') };
}

function get(port: number, path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Where the answers go (Slack's response_url): takes them and says 200. */
async function startSink(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/answer` };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function printServeStart(bench: ServeStartBench): void {
  const b = bench.burnrate;
  console.log(
    `\nserve start, fresh folder (the embedded demo seeded, every first check run), Slack in HTTP mode, median of ${bench.runs}:`,
  );
  console.log(
    `  first slash command acked : burnrate ${b.firstAckMs} ms after spawn (that command waited ${b.firstAckLatencyMs} ms), bare Bolt ${bench.bare.firstAckMs} ms (${bench.bare.firstAckLatencyMs} ms): ${bench.firstAckRatio}× (target: acked within 1.5 s, in ≤ 100 ms)`,
  );
  console.log(`  first checks done         : ${b.startedMs} ms after spawn`);
  console.log(
    `  while starting            : /healthz p99 ${b.probeP99Ms} ms, slowest ${b.probeMaxMs} ms; event-loop delay p99 ${b.loopDelayP99Ms} ms, max ${b.loopDelayMaxMs} ms`,
  );
}
