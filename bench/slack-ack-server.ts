// One server of the Slack slash-command benchmark, in its own process so it has its own event loop.
//   node dist/bench/slack-ack-server.js burnrate|bare
// burnrate: the real Slack app (Bolt in HTTP mode, dispatcher, commands, SQLite with a year of demo
// data) on burnrate's own HTTP server. bare: a Bolt app with the same receiver whose handler only acks.
// Prints one JSON line `{ "port": N }` when ready and runs until SIGTERM or SIGINT.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { createAnswerer } from '../src/chat/slack/answer/create-answerer.js';
import { dispatch } from '../src/inbound/dispatcher.js';
import { createSlackApp, SLACK_COMMAND, SLACK_EVENTS_PATH } from '../src/chat/slack/slack-app.js';
import { startHttpServer } from '../src/http/server.js';
import { refreshSources } from '../src/jobs/refresh-sources.js';
import { buildRuntime } from '../src/runtime.js';
import { demoConfig } from '../src/providers/demo/demo-config.js';
import { BENCH_BOT_TOKEN, BENCH_SIGNING_SECRET, DEMO_DAYS, type LoopDelayLine, type ReadyLine } from './slack-ack.js';

/** Nothing listens there: the bench's commands answer through response_url, never the Web API. */
const UNUSED_API_URL = 'http://127.0.0.1:9/api/';

async function startBurnrate(): Promise<{ server: Server; rows: number; answers: string; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-bench-slack-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    SLACK_BOT_TOKEN: BENCH_BOT_TOKEN,
    SLACK_SIGNING_SECRET: BENCH_SIGNING_SECRET,
    SLACK_API_URL: UNUSED_API_URL,
  };
  const base = demoConfig();
  const config = { ...base, sources: base.sources.map((s) => (s.type === 'demo' ? { ...s, days: DEMO_DAYS } : s)) };
  const runtime = await buildRuntime({ config, dbPath: join(dir, 'bench.db'), env });
  const { deps } = runtime;
  // No outbox posting during the bench: slash commands answer through response_url only.
  deps.chat = [];
  const [result] = await refreshSources(deps);
  if (!result?.ok) throw new Error(`demo refresh failed: ${result?.error ?? 'no source'}`);
  // As serve does: answers on worker threads (BURNRATE_ANSWER_WORKERS=0 gives the in-process baseline).
  const answerer = createAnswerer(deps, { dbPath: runtime.dbPath, env, dispatch });
  await answerer.ready();
  const slack = createSlackApp(deps, { env, dispatch, answerer });
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    routes: slack.routes,
    health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
  });
  return {
    server,
    rows: result.summary?.rowsInserted ?? 0,
    answers: answerer.describe(),
    close: async () => {
      await answerer.close();
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startBare(): Promise<{ server: Server; rows?: number; answers?: string; close: () => Promise<void> }> {
  // The same receiver options as burnrate's (signature verification on, same path), Bolt's own
  // console logger at ERROR, and a fixed authorization so no auth.test call is made.
  const receiver = new HTTPReceiver({
    signingSecret: BENCH_SIGNING_SECRET,
    endpoints: SLACK_EVENTS_PATH,
    signatureVerification: true,
    logLevel: LogLevel.ERROR,
  });
  const app = new App({
    receiver,
    authorize: async () => ({ botToken: BENCH_BOT_TOKEN }),
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: UNUSED_API_URL },
    convoStore: false,
  });
  app.command(SLACK_COMMAND, async ({ ack }) => ack());
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'POST' && path === SLACK_EVENTS_PATH) {
      try {
        receiver.requestListener(req, res);
        return;
      } catch {
        // falls through to 404
      }
    }
    if (!res.headersSent) {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { server, close: async () => {} };
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== 'burnrate' && mode !== 'bare') {
    console.error('usage: node dist/bench/slack-ack-server.js burnrate|bare');
    process.exitCode = 2;
    return;
  }
  const started = mode === 'burnrate' ? await startBurnrate() : await startBare();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    started.server.closeAllConnections();
    started.server.close();
    // process.exit (not a bare signal death) so --cpu-prof can write its profile.
    started.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // SIGUSR2: one line with the event-loop delay since the last one (slack-ack.ts asks before and after each measured run).
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const line: LoopDelayLine = { loopDelay: { p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max), mean: ms(loopDelay.mean) } };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    loopDelay.reset();
  });
  const ready: ReadyLine = {
    port: (started.server.address() as AddressInfo).port,
    ...(started.rows !== undefined ? { rows: started.rows } : {}),
    ...(started.answers !== undefined ? { answers: started.answers } : {}),
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

await main();
