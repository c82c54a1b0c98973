// Slack slash-command benchmark: ack latency on loopback, burnrate against a bare Bolt app, side by
// side in one run, alternating which goes first. Two loads:
//   closed loop: `concurrency` signed `/burnrate ...` slash commands in flight, each sent as soon as
//     the previous one is acked, as fast as the server goes: the throughput ceiling, and latency at
//     saturation (where, by Little's law, it only mirrors CPU per request).
//   open loop: commands sent at a fixed offered rate (Poisson arrivals, the same schedule for both
//     servers) whatever the server does: latency at a sustainable rate, the realistic question for
//     commands people type.
// burnrate is the real Bolt app, dispatcher, commands and a year of demo data in SQLite; the bare app's
// handler only acks. Targets: burnrate's ack p99 within 1.3x of the bare app's, and the full answer
// (the POST to response_url) p99 under 500 ms.
//
// The servers run as child processes (bench/slack-ack-server.ts), and so does the stand-in for
// Slack's response_url (bench/slack-ack-sink.ts); the load generator is this process. Only one
// target is under load at a time.

import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { SinkReport } from './slack-ack-sink.js';
import { median } from './stats.js';
import { mulberry32 } from '../src/providers/demo/random.js';

export const BENCH_SIGNING_SECRET = 'bench-signing-secret-4a8a08f09d37b737';
export const BENCH_BOT_TOKEN = 'xoxb-bench';
export const DEMO_DAYS = 365;
const EVENTS_PATH = '/slack/events';
/** The command texts, cycled: cheap and expensive queries, and the budget forecast. */
export const COMMAND_TEXTS = ['spend', 'spend by service', 'spend llm-training last-month by resource', 'budget'] as const;
/** How long without any answer arriving before the missing ones count as missing. */
const ANSWER_GRACE_MS = 10_000;
/** The longest a run waits for its answers in all. */
const ANSWER_WAIT_MAX_MS = 300_000;

/** What a server child prints when it listens. */
/** The server's event-loop delay over a measured run (perf_hooks monitorEventLoopDelay, 5 ms resolution), ms. */
export interface LoopDelay {
  p99: number;
  max: number;
  mean: number;
}

/** What a server prints when asked (SIGUSR2): its event-loop delay since it was last asked. */
export interface LoopDelayLine {
  loopDelay: LoopDelay;
}

export interface ReadyLine {
  port: number;
  /** burnrate: daily spend rows loaded. */
  rows?: number;
  /** burnrate: where answers are computed (worker threads or in process). */
  answers?: string;
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
  /** The part of it on the acking thread (the process's main thread; burnrate answers on others), ms per request. */
  ackingCpuMsPerRequest: number | null;
  /** Transport errors by code (ECONNRESET, ...). */
  transportErrorCodes: Record<string, number>;
  /**
   * CPU used on the machine by anything but the two servers, the sink and this process during the rounds
   * (steal included), % of one core: other work competing with the benchmark; null off Linux.
   */
  otherCpuPct: number | null;
}

export interface SlackAckBench {
  requests: number;
  concurrency: number;
  rounds: number;
  warmup: number;
  demoDays: number;
  /** Where burnrate computed its answers: `answers: 1 worker thread`, or in process. */
  answers: string;
  /** Daily spend rows burnrate answered from. */
  spendRows: number;
  burnrate: TargetResult & {
    /** Send -> the answer's POST arrives at response_url, ms. */
    answer: Percentiles;
    /** Answers per second over each round (first send -> last answer); median of the rounds. */
    answersPerSec: number;
    /** Answers that had not arrived when the bench gave up waiting (see awaitAnswers). */
    missingAnswers: number;
    /** Answers that arrived but said something went wrong. */
    errorAnswers: number;
    /** Commands turned away in their acknowledgement (answers were falling behind): no answer expected. */
    turnedAway: number;
    /** Answer p99 per command text, pooled over rounds. */
    answerP99ByText: Record<string, number>;
  };
  bare: TargetResult;
  /** burnrate ack p99 / bare ack p99, pooled (target <= 1.3). */
  p99Ratio: number;
  /** The same ratio from the per-round p99 medians. */
  perRoundP99Ratio: number;
  /** The open-loop runs at fixed offered rates; null when none were asked for. */
  openLoop: OpenLoopBench | null;
}

export interface OpenLoopOptions {
  /** Offered rates, requests per second. */
  rates: number[];
  /** Measured seconds per rate, target and round. */
  seconds: number;
  /** Seconds at the same rate before each measured run, not counted (sockets, JIT, page cache). */
  warmupSeconds: number;
  /** Runs per rate and target, alternating which target goes first. */
  rounds: number;
}

export interface OpenTargetResult {
  /** Requests sent in the measured runs, and the rate they were actually sent at (median of the rounds). */
  sent: number;
  achievedRps: number;
  /** Send -> HTTP response complete, ms; pooled over the rounds. */
  ack: Percentiles;
  non200: number;
  transportErrors: number;
  /** The server process's CPU (user + system) per request over the measured runs, ms; null off Linux. */
  serverCpuMsPerRequest: number | null;
  /** The part of it on the acking thread (the process's main thread; burnrate answers on others), ms per request. */
  ackingCpuMsPerRequest: number | null;
  /** That CPU as a share of one core over the measured runs' wall time, %; null off Linux. */
  serverBusyPct: number | null;
  /** How late the load generator sent against its schedule, p99 ms: it kept up if this is small. */
  sendLagP99: number;
  transportErrorCodes: Record<string, number>;
  /** As in the closed loop: other work on the machine during the measured runs, % of one core. */
  otherCpuPct: number | null;
  /** The server's event-loop delay during the measured runs: p99 (median of the rounds') and max (of all), ms. */
  loopDelayP99: number | null;
  loopDelayMax: number | null;
}

export interface OpenLoopRate {
  /** Offered rate, requests per second. */
  rate: number;
  burnrate: OpenTargetResult & {
    /** Send -> the answer's POST arrives at response_url, ms. */
    answer: Percentiles;
    missingAnswers: number;
    errorAnswers: number;
    turnedAway: number;
  };
  bare: OpenTargetResult;
  /** burnrate ack p99 / bare ack p99, pooled (target <= 1.3). */
  p99Ratio: number;
  /** The same ratio from the per-round p99 medians: one round disturbed by other work moves it less. */
  perRoundP99Ratio: number;
}

export interface OpenLoopBench extends OpenLoopOptions {
  /** Poisson arrivals (exponential gaps), one seeded schedule per rate and round, the same for both targets. */
  arrivals: 'poisson';
  results: OpenLoopRate[];
}

type Mode = 'burnrate' | 'bare';

interface Target {
  mode: Mode;
  child: ChildProcess;
  port: number;
  rows: number;
  answers: string;
  /** Closed loop: one socket per request in flight. */
  agent: Agent;
  /** Open loop: no cap, so a slow server's backlog queues at the server, not in the client. */
  openAgent: Agent;
  /** The server's event-loop delay since this was last called (which starts the next measurement). */
  loopDelay(): Promise<LoopDelay | null>;
}

interface RoundResult {
  acks: number[];
  rps: number;
  non200: number;
  transportErrors: number;
  errorCodes: Record<string, number>;
  /** The target server's CPU over the run, and everything else's but the servers' and ours. */
  cpuMs: number | null;
  /** The target's main thread's share of cpuMs: the thread that acknowledges. */
  ackingCpuMs: number | null;
  otherCpuMs: number | null;
  /** id -> send time (performance.now()), for matching answers. */
  sent: Map<number, { at: number; text: string }>;
  /** Commands acknowledged with a message instead of an empty body: turned away, never answered. */
  turnedAway: Set<number>;
  lastAckAt: number;
  firstSendAt: number;
  /** Wall time of the measured run, ms: first send -> last ack (or answer, for burnrate), the span the CPU figures cover. */
  wallMs: number;
}

interface OpenRound extends RoundResult {
  /** Actual send time minus scheduled send time, ms, per request. */
  lags: number[];
  loopDelay: LoopDelay | null;
}

export async function benchSlackAck(opts: {
  requests: number;
  concurrency: number;
  rounds: number;
  warmup?: number;
  open?: OpenLoopOptions | null;
}): Promise<SlackAckBench> {
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
      await fire(target, ids(warmup), opts.concurrency, sink, target.mode === 'burnrate');
    }

    const results: Record<Mode, RoundResult[]> = { burnrate: [], bare: [] };
    const answers: number[][] = [];
    let missingAnswers = 0;
    let turnedAway = 0;
    const byText = new Map<string, number[]>();
    const answerSpans: number[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const order = round % 2 === 0 ? [burnrate, bare] : [bare, burnrate];
      for (const target of order) {
        const result = await fire(target, ids(opts.requests), opts.concurrency, sink, target.mode === 'burnrate');
        results[target.mode].push(result);
        if (target.mode !== 'burnrate') continue;
        missingAnswers += result.missingAnswers;
        turnedAway += result.turnedAway.size;
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
        ackingCpuMsPerRequest: perRequest(
          rounds.map((r) => r.ackingCpuMs),
          total,
        ),
        transportErrorCodes: mergeCounts(rounds.map((r) => r.errorCodes)),
        otherCpuPct: otherCpuPct(rounds.map((r) => ({ otherMs: r.otherCpuMs, wallMs: r.wallMs }))),
      };
    };
    const burnrateResult = summarize(results.burnrate);
    const bareResult = summarize(results.bare);
    // Read now: the open-loop runs below add to the sink's count.
    const errorAnswers = sink.errorAnswers;
    const openLoop = opts.open && opts.open.rates.length > 0 ? await benchOpenLoop(burnrate, bare, sink, opts.open, ids) : null;
    return {
      requests: opts.requests,
      concurrency: opts.concurrency,
      rounds: opts.rounds,
      warmup,
      demoDays: DEMO_DAYS,
      answers: burnrate.answers,
      spendRows: burnrate.rows,
      burnrate: {
        ...burnrateResult,
        answer: percentiles(answers),
        answersPerSec: round1(median(answerSpans)),
        missingAnswers,
        errorAnswers,
        turnedAway,
        answerP99ByText: Object.fromEntries([...byText].map(([text, ms]) => [text, round1(percentile(sorted(ms), 99))])),
      },
      bare: bareResult,
      p99Ratio: Math.round((burnrateResult.ack.p99 / bareResult.ack.p99) * 100) / 100,
      perRoundP99Ratio: Math.round((burnrateResult.ack.perRoundP99Median / bareResult.ack.perRoundP99Median) * 100) / 100,
      openLoop,
    };
  } finally {
    await Promise.all(targets.map((t) => stopTarget(t)));
    sink.child.disconnect();
  }
}

/**
 * Fires `ids.length` signed slash commands at `concurrency` in flight; resolves when all are acked
 * and, with `answered`, all answered (or given up): the server's CPU then includes the answers.
 */
async function fire(
  target: Target,
  ids: number[],
  concurrency: number,
  sink: Sink,
  answered = false,
): Promise<RoundResult & { missingAnswers: number }> {
  const sinkUrl = sink.url;
  const result = emptyRound();
  const cpuBefore = sampleCpu();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) await sendCommand(target, target.agent, ids[next++]!, sinkUrl, result);
  };
  result.firstSendAt = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.rps = result.acks.length / ((result.lastAckAt - result.firstSendAt) / 1000);
  const missingAnswers = answered ? await awaitAnswers(sink, result) : 0;
  Object.assign(result, cpuBetween(cpuBefore, sampleCpu(), target));
  result.wallMs = performance.now() - result.firstSendAt;
  return { ...result, missingAnswers };
}

/**
 * Sends `ids` at the offered `rate` (req/s) with Poisson arrivals from `seed`, never waiting for a
 * response before the next send; resolves when all are acked (and, for burnrate, answered or given up).
 */
async function fireOpen(target: Target, ids: number[], rate: number, seed: number, sink: Sink): Promise<OpenRound> {
  const schedule = poissonSchedule(ids.length, rate, seed);
  const result: OpenRound = { ...emptyRound(), lags: [], loopDelay: null };
  const pending: Promise<void>[] = [];
  await target.loopDelay();
  const cpuBefore = sampleCpu();
  const start = performance.now() + 5;
  result.firstSendAt = start;
  let next = 0;
  let firstSend = 0;
  let lastSend = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < ids.length && start + schedule[next]! <= now) {
        if (next === 0) firstSend = now;
        lastSend = now;
        result.lags.push(now - (start + schedule[next]!));
        pending.push(sendCommand(target, target.openAgent, ids[next]!, sink.url, result));
        next++;
      }
      if (next >= ids.length) resolve();
      else setTimeout(tick, Math.max(0, start + schedule[next]! - performance.now()));
    };
    tick();
  });
  await Promise.all(pending);
  let end = result.lastAckAt;
  if (target.mode === 'burnrate') {
    await awaitAnswers(sink, result);
    for (const id of result.sent.keys()) end = Math.max(end, sink.arrivals.get(id) ?? end);
  }
  Object.assign(result, cpuBetween(cpuBefore, sampleCpu(), target));
  result.loopDelay = await target.loopDelay();
  result.wallMs = end - start;
  // n sends span n - 1 gaps.
  result.rps = ids.length > 1 ? (ids.length - 1) / ((lastSend - firstSend) / 1000) : NaN;
  return result;
}

/** The open-loop runs: for each rate, `rounds` runs per target, alternating which goes first. */
async function benchOpenLoop(
  burnrate: Target,
  bare: Target,
  sink: Sink,
  opts: OpenLoopOptions,
  ids: (n: number) => number[],
): Promise<OpenLoopBench> {
  const results: OpenLoopRate[] = [];
  for (const [rateIndex, rate] of opts.rates.entries()) {
    const rounds: Record<Mode, OpenRound[]> = { burnrate: [], bare: [] };
    let missingAnswers = 0;
    let turnedAway = 0;
    const errorsBefore = sink.errorAnswers;
    for (let round = 0; round < opts.rounds; round++) {
      const order = (rateIndex + round) % 2 === 0 ? [burnrate, bare] : [bare, burnrate];
      const seed = 1 + rateIndex * 1000 + round;
      for (const target of order) {
        if (opts.warmupSeconds > 0) await fireOpen(target, ids(Math.max(1, Math.round(rate * opts.warmupSeconds))), rate, seed + 500, sink);
        const result = await fireOpen(target, ids(Math.max(1, Math.round(rate * opts.seconds))), rate, seed, sink);
        rounds[target.mode].push(result);
        if (target.mode !== 'burnrate') continue;
        missingAnswers += [...result.sent.keys()].filter((id) => !sink.arrivals.has(id) && !result.turnedAway.has(id)).length;
        turnedAway += result.turnedAway.size;
      }
    }
    const summarize = (runs: OpenRound[]): OpenTargetResult => {
      const cpu = runs.every((r) => r.cpuMs !== null) ? runs.reduce((t, r) => t + (r.cpuMs ?? 0), 0) : null;
      const sent = runs.reduce((t, r) => t + r.sent.size, 0);
      const wall = runs.reduce((t, r) => t + r.wallMs, 0);
      return {
        sent,
        achievedRps: round1(median(runs.map((r) => r.rps))),
        ack: percentiles(runs.map((r) => r.acks)),
        non200: runs.reduce((t, r) => t + r.non200, 0),
        transportErrors: runs.reduce((t, r) => t + r.transportErrors, 0),
        serverCpuMsPerRequest: cpu === null ? null : Math.round((cpu / sent) * 1000) / 1000,
        ackingCpuMsPerRequest: perRequest(
          runs.map((r) => r.ackingCpuMs),
          sent,
        ),
        serverBusyPct: cpu === null ? null : round1((cpu / wall) * 100),
        sendLagP99: round1(percentile(sorted(runs.flatMap((r) => r.lags)), 99)),
        transportErrorCodes: mergeCounts(runs.map((r) => r.errorCodes)),
        otherCpuPct: otherCpuPct(runs.map((r) => ({ otherMs: r.otherCpuMs, wallMs: r.wallMs }))),
        loopDelayP99: runs.every((r) => r.loopDelay) ? median(runs.map((r) => r.loopDelay!.p99)) : null,
        loopDelayMax: runs.every((r) => r.loopDelay) ? Math.max(...runs.map((r) => r.loopDelay!.max)) : null,
      };
    };
    const answers = rounds.burnrate.map((r) =>
      [...r.sent].flatMap(([id, { at }]) => (sink.arrivals.has(id) ? [sink.arrivals.get(id)! - at] : [])),
    );
    const burnrateResult = summarize(rounds.burnrate);
    const bareResult = summarize(rounds.bare);
    console.log(
      `  event-loop delay at ${rate} req/s (p99 of a round, median; max): burnrate ${burnrateResult.loopDelayP99} ms, ${burnrateResult.loopDelayMax} ms; bare Bolt ${bareResult.loopDelayP99} ms, ${bareResult.loopDelayMax} ms`,
    );
    results.push({
      rate,
      burnrate: {
        ...burnrateResult,
        answer: percentiles(answers),
        missingAnswers,
        errorAnswers: sink.errorAnswers - errorsBefore,
        turnedAway,
      },
      bare: bareResult,
      p99Ratio: Math.round((burnrateResult.ack.p99 / bareResult.ack.p99) * 100) / 100,
      perRoundP99Ratio: Math.round((burnrateResult.ack.perRoundP99Median / bareResult.ack.perRoundP99Median) * 100) / 100,
    });
  }
  return { ...opts, arrivals: 'poisson', results };
}

/** Cumulative send times (ms from the start) of `n` Poisson arrivals at `rate` per second. */
function poissonSchedule(n: number, rate: number, seed: number): number[] {
  const random = mulberry32(seed);
  const times: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    times.push(t);
    t += (-Math.log(1 - random()) / rate) * 1000;
  }
  return times;
}

function emptyRound(): RoundResult {
  return {
    acks: [],
    rps: 0,
    non200: 0,
    transportErrors: 0,
    errorCodes: {},
    cpuMs: null,
    ackingCpuMs: null,
    otherCpuMs: null,
    sent: new Map(),
    turnedAway: new Set(),
    lastAckAt: 0,
    firstSendAt: 0,
    wallMs: 0,
  };
}

/** Sends one signed slash command and records its ack in `into`; resolves when it is acked (or failed). */
function sendCommand(target: Target, agent: Agent, id: number, sinkUrl: string, into: RoundResult): Promise<void> {
  return new Promise<void>((resolve) => {
    const text = COMMAND_TEXTS[id % COMMAND_TEXTS.length]!;
    const { body, headers } = signedCommand(text, `${sinkUrl}/r/${id}`, id);
    const at = performance.now();
    into.sent.set(id, { at, text });
    const req = request({ host: '127.0.0.1', port: target.port, path: EVENTS_PATH, method: 'POST', agent, headers }, (res) => {
      let bodyBytes = 0;
      res.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
      res.on('end', () => {
        const done = performance.now();
        into.acks.push(done - at);
        into.lastAckAt = Math.max(into.lastAckAt, done);
        if (res.statusCode !== 200) into.non200++;
        // An empty body acknowledges; burnrate says "busy" in the body when it turns a command away.
        else if (bodyBytes > 0) into.turnedAway.add(id);
        resolve();
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      into.transportErrors++;
      const code = error.code ?? error.message;
      into.errorCodes[code] = (into.errorCodes[code] ?? 0) + 1;
      resolve();
    });
    req.end(body);
  });
}

/**
 * Waits until every answer of a round has arrived. Answers may lag the acks by a queue (burnrate
 * answers on worker threads, so acks can outrun answers): it gives up only once no answer has
 * arrived for ANSWER_GRACE_MS, or after ANSWER_WAIT_MAX_MS in all; returns how many are missing.
 * The next run starts with burnrate idle, not still working through this one's backlog.
 */
async function awaitAnswers(sink: Sink, round: RoundResult): Promise<number> {
  const started = performance.now();
  let lastProgress = Math.max(round.lastAckAt, started);
  let left = [...round.sent.keys()].filter((id) => !sink.arrivals.has(id) && !round.turnedAway.has(id));
  while (left.length > 0 && performance.now() - lastProgress < ANSWER_GRACE_MS && performance.now() - started < ANSWER_WAIT_MAX_MS) {
    await new Promise((r) => setTimeout(r, 20));
    const still = left.filter((id) => !sink.arrivals.has(id));
    if (still.length < left.length) lastProgress = performance.now();
    left = still;
  }
  return left.length;
}

interface Sink {
  child: ChildProcess;
  url: string;
  /** id -> arrival time of the answer's POST, on this process's performance.now() clock. */
  arrivals: Map<number, number>;
  errorAnswers: number;
}

/** Starts the response_url stand-in (bench/slack-ack-sink.ts) in its own process. */
async function startSink(): Promise<Sink> {
  const script = fileURLToPath(new URL('./slack-ack-sink.js', import.meta.url));
  const child = fork(script, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const sink: Sink = { child, url: '', arrivals: new Map(), errorAnswers: 0 };
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`slack-ack-sink exited with code ${code}`)));
  });
  child.on('message', (report: SinkReport) => {
    for (const [id, epochMs] of report.arrivals) if (!sink.arrivals.has(id)) sink.arrivals.set(id, epochMs - performance.timeOrigin);
    sink.errorAnswers = report.errorAnswers;
  });
  if (child.pid !== undefined) BENCH_PIDS.add(child.pid);
  sink.url = `http://127.0.0.1:${port}`;
  return sink;
}

async function startTarget(mode: Mode, concurrency: number): Promise<Target> {
  const script = fileURLToPath(new URL('./slack-ack-server.js', import.meta.url));
  // BENCH_SLACK_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=bench/out/prof", to profile the servers.
  const nodeArgs = (process.env.BENCH_SLACK_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, script, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Should this process die without reaching benchSlackAck's finally, the server goes with it.
  if (child.pid !== undefined) BENCH_PIDS.add(child.pid);
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  child.once('exit', () => {
    process.off('exit', orphan);
    if (child.pid !== undefined) BENCH_PIDS.delete(child.pid);
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`slack-ack-server ${mode} did not start within 120 s`)), 120_000);
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
  // `timeout` (below the servers' 5 s keep-alive) drops an idle socket before the server closes it,
  // so a socket is never reused just as the server closes it (an ECONNRESET that Slack would not see).
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, timeout: 4_000 });
  const openAgent = new Agent({ keepAlive: true, maxSockets: 1024, timeout: 4_000 });
  // Every later line answers a SIGUSR2 (slack-ack-server.ts), in order.
  const asked: ((delay: LoopDelay | null) => void)[] = [];
  lines.on('line', (line) => {
    // Anything else the server prints (a log line) is not an answer.
    const delay = line.startsWith('{"loopDelay"') ? (JSON.parse(line) as LoopDelayLine).loopDelay : null;
    if (delay) asked.shift()?.(delay);
  });
  child.once('exit', () => asked.splice(0).forEach((answer) => answer(null)));
  const loopDelay = () =>
    new Promise<LoopDelay | null>((resolve) => {
      asked.push(resolve);
      if (!child.kill('SIGUSR2')) asked.pop()?.(null);
    });
  return { mode, child, port: ready.port, rows: ready.rows ?? 0, answers: ready.answers ?? '', agent, openAgent, loopDelay };
}

async function stopTarget(target: Target): Promise<void> {
  target.agent.destroy();
  target.openAgent.destroy();
  const { child } = target;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A `/burnrate ...` slash command as Slack posts it (SlashCommandPayload, form-encoded). */
/** A signed `/burnrate <text>` slash command, exactly as Slack sends it. */
export function signedCommand(text: string, responseUrl: string, id: number): { body: string; headers: Record<string, string> } {
  const body = slashCommandBody(text, responseUrl, id);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    // Bolt compares the content type without a charset.
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(Buffer.byteLength(body)),
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': `v0=${createHmac('sha256', BENCH_SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`,
  };
  return { body, headers };
}

function slashCommandBody(text: string, responseUrl: string, id: number): string {
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
    // Unique per command, as Slack's are: burnrate runs a repeated trigger_id once.
    trigger_id: `${Date.now()}.${id}.bench`,
    is_enterprise_install: 'false',
  }).toString();
}

/** The servers' and the sink's pids: their CPU is the benchmark's, not other work's. */
const BENCH_PIDS = new Set<number>();
/** USER_HZ: /proc counts CPU in ticks of 10 ms. */
const TICK_MS = 10;

interface CpuSample {
  /** Busy time of the whole machine (all CPUs, steal included), ms. */
  machineMs: number;
  /** Each server's (and the sink's) CPU, ms. */
  servers: Map<number, number>;
  /** Each server's main thread's CPU, ms. */
  mainThreads: Map<number, number>;
  /** This process's CPU (the load generator), ms. */
  selfMs: number;
}

/** A snapshot of CPU time used so far; null where /proc is absent. */
function sampleCpu(): CpuSample | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    const machineMs = ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * TICK_MS;
    const servers = new Map<number, number>();
    const mainThreads = new Map<number, number>();
    for (const pid of BENCH_PIDS) {
      const ticks = cpuTicks(pid);
      if (ticks === null) return null;
      servers.set(pid, ticks * TICK_MS);
      mainThreads.set(pid, (cpuTicks(pid, pid) ?? NaN) * TICK_MS);
    }
    const self = process.cpuUsage();
    return { machineMs, servers, mainThreads, selfMs: (self.user + self.system) / 1000 };
  } catch {
    return null;
  }
}

/** The target's CPU between two samples, and everyone else's but the benchmark's own processes'. */
function cpuBetween(
  before: CpuSample | null,
  after: CpuSample | null,
  target: Target,
): { cpuMs: number | null; ackingCpuMs: number | null; otherCpuMs: number | null } {
  if (!before || !after) return { cpuMs: null, ackingCpuMs: null, otherCpuMs: null };
  const pid = target.child.pid ?? -1;
  const cpuMs = (after.servers.get(pid) ?? NaN) - (before.servers.get(pid) ?? NaN);
  const ackingCpuMs = (after.mainThreads.get(pid) ?? NaN) - (before.mainThreads.get(pid) ?? NaN);
  let ours = after.selfMs - before.selfMs;
  for (const [p, ms] of after.servers) ours += ms - (before.servers.get(p) ?? ms);
  return {
    cpuMs: Number.isNaN(cpuMs) ? null : cpuMs,
    ackingCpuMs: Number.isNaN(ackingCpuMs) ? null : ackingCpuMs,
    otherCpuMs: Math.max(0, after.machineMs - before.machineMs - ours),
  };
}

function otherCpuPct(runs: { otherMs: number | null; wallMs: number }[]): number | null {
  if (runs.some((r) => r.otherMs === null)) return null;
  const wall = runs.reduce((t, r) => t + r.wallMs, 0);
  return round1((runs.reduce((t, r) => t + (r.otherMs ?? 0), 0) / wall) * 100);
}

function mergeCounts(counts: Record<string, number>[]): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const c of counts) for (const [k, v] of Object.entries(c)) merged[k] = (merged[k] ?? 0) + v;
  return merged;
}

/** CPU ms per request over runs; null when any run could not be measured. */
function perRequest(cpuMs: (number | null)[], requests: number): number | null {
  if (cpuMs.some((ms) => ms === null)) return null;
  return Math.round((cpuMs.reduce<number>((t, ms) => t + ms!, 0) / requests) * 1000) / 1000;
}

/**
 * utime + stime of a process (or, with `tid`, of one of its threads: the main thread's id is the
 * process's) in clock ticks (USER_HZ, 100 on Linux); null where /proc is absent.
 */
function cpuTicks(pid: number | undefined, tid?: number): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
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
