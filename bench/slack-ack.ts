// Slack slash-command benchmark: ack latency under load on loopback. Many concurrent signed
// `/burnrate ...` slash commands against burnrate (real Bolt app, dispatcher, commands, a year of
// demo data in SQLite) and against a bare Bolt app whose handler only acks, side by side in one run,
// alternating which goes first. Targets: burnrate's ack p99 within 1.3x of the bare app's, and the
// full answer (the POST to response_url) p99 under 500 ms.
//
// The servers run as child processes (bench/slack-ack-server.ts); the load generator and the
// response_url sink share this process. Only one target is under load at a time.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { median } from './stats.js';

export const BENCH_SIGNING_SECRET = 'bench-signing-secret-4a8a08f09d37b737';
export const BENCH_BOT_TOKEN = 'xoxb-bench';
export const DEMO_DAYS = 365;
const EVENTS_PATH = '/slack/events';
/** The command texts, cycled: cheap and expensive queries, and the budget forecast. */
export const COMMAND_TEXTS = ['spend', 'spend by service', 'spend llm-training last-month by resource', 'budget'] as const;
/** How long after a round's last ack an answer may still arrive before it counts as missing. */
const ANSWER_GRACE_MS = 10_000;

/** What a server child prints when it listens. */
export interface ReadyLine {
  port: number;
  /** burnrate: daily spend rows loaded. */
  rows?: number;
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** p99 of each round on its own, and their median. */
  perRoundP99: number[];
  perRoundP99Median: number;
}

export interface TargetResult {
  /** Send -> HTTP response complete, ms; percentiles pooled over all rounds. */
  ack: Percentiles;
  /** Requests per second over each round (first send -> last ack); median of the rounds. */
  throughputRps: number;
  perRoundRps: number[];
  /** Responses that were not HTTP 200, and requests that failed at the transport. */
  non200: number;
  transportErrors: number;
  /** The server process's CPU (user + system) per request, ms, over all rounds; null off Linux. */
  serverCpuMsPerRequest: number | null;
}

export interface SlackAckBench {
  requests: number;
  concurrency: number;
  rounds: number;
  warmup: number;
  demoDays: number;
  /** Daily spend rows burnrate answered from. */
  spendRows: number;
  burnrate: TargetResult & {
    /** Send -> the answer's POST arrives at response_url, ms. */
    answer: Percentiles;
    /** Answers per second over each round (first send -> last answer); median of the rounds. */
    answersPerSec: number;
    /** Answers that had not arrived ANSWER_GRACE_MS after the round's last ack. */
    missingAnswers: number;
    /** Answers that arrived but said something went wrong. */
    errorAnswers: number;
    /** Answer p99 per command text, pooled over rounds. */
    answerP99ByText: Record<string, number>;
  };
  bare: TargetResult;
  /** burnrate ack p99 / bare ack p99, pooled (target <= 1.3). */
  p99Ratio: number;
  /** The same ratio from the per-round p99 medians. */
  perRoundP99Ratio: number;
}

type Mode = 'burnrate' | 'bare';

interface Target {
  mode: Mode;
  child: ChildProcess;
  port: number;
  rows: number;
  agent: Agent;
}

interface RoundResult {
  acks: number[];
  rps: number;
  non200: number;
  transportErrors: number;
  cpuMs: number | null;
  /** id -> send time (performance.now()), for matching answers. */
  sent: Map<number, { at: number; text: string }>;
  lastAckAt: number;
  firstSendAt: number;
}

export async function benchSlackAck(opts: { requests: number; concurrency: number; rounds: number; warmup?: number }): Promise<SlackAckBench> {
  const warmup = opts.warmup ?? Math.min(500, opts.requests);
  const sink = await startSink();
  const targets: Target[] = [];
  try {
    // Sequential, so burnrate's data load does not compete with the bare app's start.
    for (const mode of ['burnrate', 'bare'] as const) targets.push(await startTarget(mode, opts.concurrency));
    const [burnrate, bare] = targets as [Target, Target];
    let nextId = 0;
    const ids = (n: number) => Array.from({ length: n }, () => nextId++);

    // Warm-up (JIT, SQLite page cache, keep-alive sockets), not counted.
    for (const target of [burnrate, bare]) {
      const warm = await fire(target, ids(warmup), opts.concurrency, sink.url);
      if (target.mode === 'burnrate') await awaitAnswers(sink, warm);
    }

    const results: Record<Mode, RoundResult[]> = { burnrate: [], bare: [] };
    const answers: number[][] = [];
    let missingAnswers = 0;
    const byText = new Map<string, number[]>();
    const answerSpans: number[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const order = round % 2 === 0 ? [burnrate, bare] : [bare, burnrate];
      for (const target of order) {
        const result = await fire(target, ids(opts.requests), opts.concurrency, sink.url);
        results[target.mode].push(result);
        if (target.mode !== 'burnrate') continue;
        const missing = await awaitAnswers(sink, result);
        missingAnswers += missing;
        const ms: number[] = [];
        let lastAnswer = result.firstSendAt;
        for (const [id, { at, text }] of result.sent) {
          const arrived = sink.arrivals.get(id);
          if (arrived === undefined) continue;
          ms.push(arrived - at);
          lastAnswer = Math.max(lastAnswer, arrived);
          const list = byText.get(text) ?? [];
          list.push(arrived - at);
          byText.set(text, list);
        }
        answers.push(ms);
        answerSpans.push(ms.length / ((lastAnswer - result.firstSendAt) / 1000));
      }
    }

    const summarize = (rounds: RoundResult[]): TargetResult => {
      const cpu = rounds.every((r) => r.cpuMs !== null) ? rounds.reduce((t, r) => t + (r.cpuMs ?? 0), 0) : null;
      const total = rounds.reduce((t, r) => t + r.acks.length, 0);
      return {
        ack: percentiles(rounds.map((r) => r.acks)),
        throughputRps: round1(median(rounds.map((r) => r.rps))),
        perRoundRps: rounds.map((r) => round1(r.rps)),
        non200: rounds.reduce((t, r) => t + r.non200, 0),
        transportErrors: rounds.reduce((t, r) => t + r.transportErrors, 0),
        serverCpuMsPerRequest: cpu === null ? null : Math.round((cpu / total) * 1000) / 1000,
      };
    };
    const burnrateResult = summarize(results.burnrate);
    const bareResult = summarize(results.bare);
    return {
      requests: opts.requests,
      concurrency: opts.concurrency,
      rounds: opts.rounds,
      warmup,
      demoDays: DEMO_DAYS,
      spendRows: burnrate.rows,
      burnrate: {
        ...burnrateResult,
        answer: percentiles(answers),
        answersPerSec: round1(median(answerSpans)),
        missingAnswers,
        errorAnswers: sink.errorAnswers,
        answerP99ByText: Object.fromEntries([...byText].map(([text, ms]) => [text, round1(percentile(sorted(ms), 99))])),
      },
      bare: bareResult,
      p99Ratio: Math.round((burnrateResult.ack.p99 / bareResult.ack.p99) * 100) / 100,
      perRoundP99Ratio: Math.round((burnrateResult.ack.perRoundP99Median / bareResult.ack.perRoundP99Median) * 100) / 100,
    };
  } finally {
    await Promise.all(targets.map((t) => stopTarget(t)));
    sink.server.closeAllConnections();
    await new Promise<void>((resolve) => sink.server.close(() => resolve()));
  }
}

/** Fires `ids.length` signed slash commands at `concurrency` in flight; resolves when all are acked. */
async function fire(target: Target, ids: number[], concurrency: number, sinkUrl: string): Promise<RoundResult> {
  const result: RoundResult = { acks: [], rps: 0, non200: 0, transportErrors: 0, cpuMs: null, sent: new Map(), lastAckAt: 0, firstSendAt: 0 };
  const cpuBefore = cpuTicks(target.child.pid);
  let next = 0;
  const one = (id: number) =>
    new Promise<void>((resolve) => {
      const text = COMMAND_TEXTS[id % COMMAND_TEXTS.length]!;
      const body = slashCommandBody(text, `${sinkUrl}/r/${id}`);
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        // Exactly as Slack sends it: Bolt compares the content type without a charset.
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(body)),
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': `v0=${createHmac('sha256', BENCH_SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`,
      };
      const at = performance.now();
      result.sent.set(id, { at, text });
      const req = request({ host: '127.0.0.1', port: target.port, path: EVENTS_PATH, method: 'POST', agent: target.agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          const done = performance.now();
          result.acks.push(done - at);
          result.lastAckAt = Math.max(result.lastAckAt, done);
          if (res.statusCode !== 200) result.non200++;
          resolve();
        });
      });
      req.on('error', () => {
        result.transportErrors++;
        resolve();
      });
      req.end(body);
    });
  const worker = async () => {
    while (next < ids.length) await one(ids[next++]!);
  };
  result.firstSendAt = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.rps = result.acks.length / ((result.lastAckAt - result.firstSendAt) / 1000);
  const cpuAfter = cpuTicks(target.child.pid);
  result.cpuMs = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) * 10;
  return result;
}

/** Waits until every answer of a round has arrived, or ANSWER_GRACE_MS after its last ack; returns how many are missing. */
async function awaitAnswers(sink: Sink, round: RoundResult): Promise<number> {
  const deadline = Math.max(round.lastAckAt, performance.now()) + ANSWER_GRACE_MS;
  const missing = () => [...round.sent.keys()].filter((id) => !sink.arrivals.has(id)).length;
  while (missing() > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return missing();
}

interface Sink {
  server: Server;
  url: string;
  /** id -> arrival time (performance.now()) of the answer's POST. */
  arrivals: Map<number, number>;
  errorAnswers: number;
}

/** Stands in for Slack's response_url: records when each answer arrives (the path carries the id). */
async function startSink(): Promise<Sink> {
  const sink: Sink = { server: null as unknown as Server, url: '', arrivals: new Map(), errorAnswers: 0 };
  sink.server = createServer((req, res) => {
    const arrived = performance.now();
    const id = Number((req.url ?? '').split('/').pop());
    if (Number.isInteger(id) && !sink.arrivals.has(id)) sink.arrivals.set(id, arrived);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (/went wrong|could not read|Unknown command|don't understand|not in any team/i.test(body)) sink.errorAnswers++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  sink.server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
  return sink;
}

async function startTarget(mode: Mode, concurrency: number): Promise<Target> {
  const script = fileURLToPath(new URL('./slack-ack-server.js', import.meta.url));
  // BENCH_SLACK_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=bench/out/prof", to profile the servers.
  const nodeArgs = (process.env.BENCH_SLACK_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, script, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Should this process die without reaching benchSlackAck's finally, the server goes with it.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`slack-ack-server ${mode} did not start within 120 s`)), 120_000);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as ReadyLine);
      } catch {
        reject(new Error(`slack-ack-server ${mode} printed ${line}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`slack-ack-server ${mode} exited with code ${code}`));
    });
  });
  // The same client for both targets: keep-alive, one socket per request in flight.
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  return { mode, child, port: ready.port, rows: ready.rows ?? 0, agent };
}

async function stopTarget(target: Target): Promise<void> {
  target.agent.destroy();
  const { child } = target;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A `/burnrate ...` slash command as Slack posts it (SlashCommandPayload, form-encoded). */
function slashCommandBody(text: string, responseUrl: string): string {
  return new URLSearchParams({
    token: 'legacy-verification-token',
    api_app_id: 'A0BURNRATE',
    team_id: 'T0DEMO',
    team_domain: 'demo',
    enterprise_id: '',
    enterprise_name: '',
    channel_id: 'C0DEMOLLMTR',
    channel_name: 'llm-training',
    // An admin sees every team, so `spend` and `budget` cover the whole organisation.
    user_id: 'U0DEMOADMIN',
    user_name: 'admin',
    command: '/burnrate',
    text,
    response_url: responseUrl,
    trigger_id: '1234567890.123456.abcdef',
    is_enterprise_install: 'false',
  }).toString();
}

/** utime + stime of a process in clock ticks (USER_HZ, 100 on Linux); null where /proc is absent. */
function cpuTicks(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

function percentiles(rounds: number[][]): Percentiles {
  const all = sorted(rounds.flat());
  const perRoundP99 = rounds.map((r) => round1(percentile(sorted(r), 99)));
  return {
    p50: round1(percentile(all, 50)),
    p95: round1(percentile(all, 95)),
    p99: round1(percentile(all, 99)),
    max: round1(all[all.length - 1] ?? NaN),
    perRoundP99,
    perRoundP99Median: round1(median(perRoundP99)),
  };
}

function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Nearest rank: the smallest value with at least p% of the values at or below it. */
function percentile(sortedValues: readonly number[], p: number): number {
  if (sortedValues.length === 0) return NaN;
  return sortedValues[Math.max(0, Math.ceil((p / 100) * sortedValues.length) - 1)]!;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
