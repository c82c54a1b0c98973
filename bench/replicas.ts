// Replica benchmark: `burnrate serve` processes behind a round-robin proxy, as a Kubernetes Service
// spreads requests over a Deployment's pods. One replica on the embedded SQLite file, then 1, 2 and
// 3 replicas on one Postgres, in one run, each from a new database with the demo organisation:
//   commands: a closed loop of `concurrency` signed slash commands through the proxy, each sent as
//     soon as the previous one is acknowledged; the ack latency (send -> HTTP 200) and the command
//     throughput (answers arriving at response_url per second, first send to last answer);
//   failover: with 3 replicas, the scheduler's leader is killed with SIGKILL and the others' /readyz
//     polled until one leads; twice (3 -> 2 -> 1 replicas).
// Everything runs on this machine: on two cores, more replicas share the same CPU with Postgres,
// the proxy and the load, so the figures show the cost of coordination, not a scale-out.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { RoundRobinProxy } from './round-robin-proxy.js';
import { signedCommand, BENCH_BOT_TOKEN, BENCH_SIGNING_SECRET } from './slack-ack.js';
import { median } from './stats.js';
import { createDatabase, startThrowawayPostgres } from './throwaway-postgres.js';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));
const TEXTS = ['spend', 'budget', 'spend by service', 'idle'];

export interface ReplicaScenario {
  store: 'sqlite' | 'postgres';
  replicas: number;
  /** Answers per second, median of the rounds. */
  commandsPerSec: number;
  ackP50Ms: number;
  ackP99Ms: number;
  /** Commands turned away in their acknowledgement (too many answers waiting): answered at once, "busy". */
  turnedAway: number;
  /** Commands taken but never answered (should be 0). */
  unanswered: number;
}

export interface ReplicaBench {
  requests: number;
  concurrency: number;
  rounds: number;
  scenarios: ReplicaScenario[];
  /** SIGKILL of the leader -> another replica leads, ms. */
  failoverMs: number[];
  postgres: string;
}

interface Replica {
  child: ChildProcess;
  port: number;
}

/** Slack's Web API (alerts of the first checks) and its response_url (answers), in one stand-in. */
async function startSlackSink(): Promise<{ server: Server; url: string; answered: Map<number, number> }> {
  const answered = new Map<number, number>();
  let ts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = /^\/r\/(\d+)$/.exec(req.url ?? '');
      if (answer) answered.set(Number(answer[1]), performance.now());
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, ts: `1700000000.${String(++ts).padStart(6, '0')}`, channel: 'C0', user_id: 'U0BOT' }));
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, answered };
}

async function readyz(port: number): Promise<{ ok: boolean; leader?: boolean } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    return (await res.json()) as { ok: boolean; leader?: boolean };
  } catch {
    return null;
  }
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs: number, stepMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`replica bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

async function startReplicas(count: number, env: NodeJS.ProcessEnv, cwd: string): Promise<Replica[]> {
  const replicas: Replica[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd, env: { ...env, PORT: String(port) }, stdio: 'ignore' });
    replicas.push({ child, port });
  }
  await until(
    async () => (await Promise.all(replicas.map((r) => readyz(r.port)))).every((r) => r?.ok === true),
    'the replicas to be ready',
    180_000,
    250,
  );
  return replicas;
}

async function stopReplicas(replicas: Replica[]): Promise<void> {
  await Promise.all(
    replicas.map(
      (r) =>
        new Promise<void>((resolve) => {
          if (r.child.exitCode !== null || r.child.signalCode !== null) return resolve();
          r.child.once('exit', () => resolve());
          r.child.kill('SIGTERM');
        }),
    ),
  );
}

/** One closed-loop round: ack latencies and the answers' rate. */
async function round(
  proxyUrl: string,
  sinkUrl: string,
  answered: Map<number, number>,
  firstId: number,
  requests: number,
  concurrency: number,
) {
  const { port } = new URL(proxyUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const acks: number[] = [];
  const turnedAway = new Set<number>();
  let next = 0;
  const started = performance.now();
  const send = (id: number) =>
    new Promise<void>((resolve) => {
      const { body, headers } = signedCommand(TEXTS[id % TEXTS.length]!, `${sinkUrl}/r/${id}`, id);
      const at = performance.now();
      const req = request({ host: '127.0.0.1', port: Number(port), path: '/slack/events', method: 'POST', agent, headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => {
          acks.push(performance.now() - at);
          // An empty body acknowledges; a body says "busy" and no answer follows.
          if (bytes > 0) turnedAway.add(id);
          resolve();
        });
      });
      req.on('error', () => resolve());
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) await send(firstId + next++);
    }),
  );
  const ids = Array.from({ length: requests }, (_, i) => firstId + i).filter((id) => !turnedAway.has(id));
  await until(async () => ids.every((id) => answered.has(id)), 'the answers', 120_000, 50).catch(() => {});
  agent.destroy();
  const got = ids.filter((id) => answered.has(id));
  const last = Math.max(...got.map((id) => answered.get(id)!));
  const sorted = [...acks].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return {
    rps: (got.length / (last - started)) * 1000,
    p50: pct(50),
    p99: pct(99),
    turnedAway: turnedAway.size,
    unanswered: ids.length - got.length,
  };
}

export async function benchReplicas(options: { requests: number; concurrency: number; rounds: number }): Promise<ReplicaBench | null> {
  const server = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, stop: () => {} } : await startThrowawayPostgres();
  if (!server) {
    console.log('\nreplicas: skipped (needs Postgres: set DATABASE_URL or install PostgreSQL)');
    return null;
  }
  const sink = await startSlackSink();
  const work = mkdtempSync(join(tmpdir(), 'burnrate-bench-replicas-'));
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    SLACK_BOT_TOKEN: BENCH_BOT_TOKEN,
    SLACK_SIGNING_SECRET: BENCH_SIGNING_SECRET,
    SLACK_API_URL: `${sink.url}/api/`,
    AWS_EC2_METADATA_DISABLED: 'true',
    METADATA_SERVER_DETECTION: 'none',
  };
  const scenarios: ReplicaScenario[] = [];
  const failoverMs: number[] = [];
  let nextId = 1;
  const plan: { store: 'sqlite' | 'postgres'; replicas: number }[] = [
    { store: 'sqlite', replicas: 1 },
    { store: 'postgres', replicas: 1 },
    { store: 'postgres', replicas: 2 },
    { store: 'postgres', replicas: 3 },
  ];
  try {
    for (const [index, step] of plan.entries()) {
      const env =
        step.store === 'sqlite'
          ? { ...base, BURNRATE_DB: join(work, `bench-${index}.db`) }
          : { ...base, DATABASE_URL: await createDatabase(server.url, `bench_replicas_${index}_${Date.now()}`) };
      const replicas = await startReplicas(step.replicas, env, work);
      const proxy = await RoundRobinProxy.start(replicas.map((r) => r.port));
      try {
        // A warm-up round, not counted: the first commands load modules and fill caches.
        await round(proxy.url, sink.url, sink.answered, nextId, Math.min(100, options.requests), options.concurrency);
        nextId += options.requests;
        const results = [];
        for (let r = 0; r < options.rounds; r++) {
          results.push(await round(proxy.url, sink.url, sink.answered, nextId, options.requests, options.concurrency));
          nextId += options.requests;
        }
        scenarios.push({
          ...step,
          commandsPerSec: median(results.map((r) => r.rps)),
          ackP50Ms: median(results.map((r) => r.p50)),
          ackP99Ms: median(results.map((r) => r.p99)),
          turnedAway: results.reduce((n, r) => n + r.turnedAway, 0),
          unanswered: results.reduce((n, r) => n + r.unanswered, 0),
        });
        if (step.store === 'postgres' && step.replicas === 3) failoverMs.push(...(await measureFailovers(replicas, 2)));
      } finally {
        await proxy.close();
        await stopReplicas(replicas);
      }
    }
  } finally {
    sink.server.closeAllConnections();
    sink.server.close();
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
  return { ...options, scenarios, failoverMs, postgres: 'PostgreSQL on this machine (fsync off), loopback' };
}

/** Kills the leader `times` times over, timing how long until another replica leads. */
async function measureFailovers(replicas: Replica[], times: number): Promise<number[]> {
  const alive = [...replicas];
  const measured: number[] = [];
  for (let i = 0; i < times; i++) {
    const states = await Promise.all(alive.map((r) => readyz(r.port)));
    const leader = alive[states.findIndex((s) => s?.leader === true)];
    if (!leader) throw new Error('replica bench: no leader to kill');
    leader.child.kill('SIGKILL');
    const killed = performance.now();
    alive.splice(alive.indexOf(leader), 1);
    await until(
      async () => (await Promise.all(alive.map((r) => readyz(r.port)))).some((s) => s?.leader === true),
      'a new leader',
      60_000,
      50,
    );
    measured.push(performance.now() - killed);
  }
  return measured;
}

export function printReplicas(bench: ReplicaBench): void {
  console.log(
    `\nReplicas behind a round-robin proxy, ${bench.requests} slash commands × ${bench.rounds} rounds at ${bench.concurrency} in flight, medians (${bench.postgres}):`,
  );
  for (const s of bench.scenarios) {
    const name = `${s.replicas} × ${s.store}`.padEnd(13);
    console.log(
      `  ${name}: ${s.commandsPerSec.toFixed(1)} answers/s, ack p50 ${s.ackP50Ms.toFixed(1)} ms, p99 ${s.ackP99Ms.toFixed(1)} ms, ${s.turnedAway} turned away (busy), ${s.unanswered} unanswered`,
    );
  }
  console.log(
    `  failover       : new leader ${bench.failoverMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} after SIGKILL of the leader (target < 30 s)`,
  );
}
