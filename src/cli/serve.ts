import type { AddressInfo } from 'node:net';
import type { ServedChat } from '../chat/chat-platform.js';
import { checkChatCanServe, noRemoteChatLine, readChatSettings } from '../chat/platforms.js';
import { dispatch } from '../inbound/dispatcher.js';
import { startHttpServer, type HealthProbe, type Route } from '../http/server.js';
import { installProcessGuard } from '../process-guard.js';
import { DeliveryLoop } from '../outbox/delivery-loop.js';
import { jobTable } from '../jobs/job-table.js';
import { buildRuntime } from '../runtime.js';
import { startScheduler, type Scheduler } from '../scheduler.js';
import { createServeMetrics } from '../http/metrics.js';
import { DEFAULT_METRICS_PORT, startMetricsListener, type MetricsSettings } from '../http/metrics-listener.js';
import { runFirstChecks } from './serve-first-run.js';
import { mcpEndpoint } from '../mcp/mcp-http.js';
import { readMcpTokens } from '../mcp/mcp-tokens.js';
import { readMcpOAuth } from '../mcp/oauth/oauth-settings.js';
import { listenForStop } from './stop-signal.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import type { Verb } from './io.js';

const USAGE = 'burnrate serve [--config FILE] [--db FILE] [--port N] [--host ADDRESS]';

/**
 * Runs burnrate until Ctrl-C:
 *   1. open config and store; connect Slack when SLACK_BOT_TOKEN is set with SLACK_APP_TOKEN (Socket
 *      Mode) or SLACK_SIGNING_SECRET (HTTP mode),
 *      Teams when MICROSOFT_APP_ID is set (or BURNRATE_INSECURE_DEV=1, unauthenticated, loopback only),
 *      else (no chat platform configured) messages print to this terminal; the local web console
 *      is one more chat platform, on by default when there is no other (CONSOLE, CONSOLE_TOKEN)
 *   2. answer /healthz, /readyz, Slack's events, Teams' activities and the console on one HTTP
 *      server, /metrics on a listener of its own (METRICS_HOST, loopback by default; METRICS_PORT;
 *      METRICS_TOKEN), and start the one outbox delivery of this process
 *   3. fill an empty store from the configured sources (the demo organisation by default), run the
 *      budget check once, then the idle-GPU check (when GPU metrics are configured) and the monthly
 *      reviews due today (the embedded demo without Slack or Teams: last month's, whatever the day);
 *      a step that fails is reported and the others run (serve keeps running)
 *   4. keep the scheduler running; jobs queue alerts and wake the delivery; on SIGINT or SIGTERM stop
 *      taking requests, finish the slash-command answers in flight (answer workers drain), then exit
 */
export const serveVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, port: { type: 'string' }, host: { type: 'string' } }, USAGE);
  const port = portOf(values.port ?? io.env.PORT ?? '3000', values.port === undefined ? 'PORT' : '--port');
  const host = values.host ?? io.env.HOST ?? '127.0.0.1';
  const metricsSettings = readMetricsSettings(io.env);
  // Read before anything opens: a malformed or short MCP token stops serve here.
  const mcpTokens = readMcpTokens(io.env);
  const mcpOAuth = readMcpOAuth(io.env);
  // Read first: a half-configured Slack, or a console that would be exposed without a token, stops serve here.
  const chats = readChatSettings(io.env, { host, terminal: io.out });
  const remoteConfigured = chats.some((chat) => chat.platform.remote);
  const runtime = await buildRuntime({
    configPath: values.config,
    dbPath: values.db,
    env: io.env,
    cwd: io.cwd,
    terminal: io.out,
    ...(io.clock ? { clock: io.clock } : {}),
  });
  const { deps } = runtime;
  let started = false;
  const say = (line: string) => io.out.write(`${line}\n`);
  const stop = listenForStop((signal) => {
    if (!started) say(`${signal}: stopping once started (press Ctrl-C again to stop now)`);
  });
  // From here on, a bug in one request (or in a library's callback) is logged and serve goes on.
  const releaseGuard = installProcessGuard(deps.log);
  const served: ServedChat[] = [];
  let closing: Promise<unknown> | null = null;
  // Once: answers in flight finish and are delivered before the platforms let go.
  const closeChats = () => (closing ??= Promise.all(served.map((chat) => chat.close?.())));
  try {
    say(`burnrate: ${runtime.configPath ?? 'embedded demo organisation (no burnrate.yml)'}, database ${deps.store.location}`);
    // A Postgres database that cannot be reached, or is newer than this burnrate, stops serve here.
    await deps.store.ready();
    checkChatCanServe(chats, deps.config, host);
    const context = { deps, env: io.env, dbPath: runtime.dbPath, dispatch, say };
    for (const { platform, settings } of chats) {
      if (!platform.serve) continue;
      const chat = await platform.serve(settings, context);
      served.push(chat);
      chat.lines.forEach(say);
    }
    const none = noRemoteChatLine(chats);
    if (none) say(none);
    // Endpoints first: Slack, Teams and the probes answer while the first checks run.
    const delivery = new DeliveryLoop(deps);
    deps.delivery = delivery;
    const metrics = createServeMetrics(deps, delivery);
    let scheduler: Scheduler | null = null;
    let firstChecksAt: Date | null = null;
    let health: HealthProbe;
    const server = await startHttpServer({
      host,
      port,
      log: deps.log,
      routes: new Map<string, Route>([
        ...served.flatMap((chat) => [...chat.routes]),
        // Assistants' MCP clients, each token (issued, from BURNRATE_MCP_TOKENS, or OAuth's) acting as its user.
        ...(await mcpEndpoint(deps, mcpTokens, mcpOAuth)),
      ]),
      health: (health = {
        alive: () => true,
        // Ready once the first checks have run (alerts of the start are queued), the schedule is on
        // and delivery makes progress (it need not have drained a backlog); `reasons` say why not.
        ready: async () => {
          const outbox = await deps.store.outbox.summary().catch(() => null);
          const running = scheduler?.running ?? false;
          const progress = await delivery
            .health()
            .catch((error: Error) => ({ ok: false, reason: `cannot read the outbox: ${error.message}`, failedPassesInRow: 0 }));
          const reasons = [
            ...(outbox === null ? ['the database does not answer'] : []),
            ...(firstChecksAt === null ? ['the first checks are still running'] : []),
            ...(running ? [] : ['the scheduler is not running']),
            ...(progress.reason ? [`delivery: ${progress.reason}`] : []),
          ];
          return {
            ok: reasons.length === 0,
            checks: { database: outbox !== null, firstChecks: firstChecksAt !== null, scheduler: running, delivery: progress.ok },
            ...(reasons.length > 0 ? { reasons } : {}),
            delivery: progress,
            ...(firstChecksAt ? { firstChecksAt: firstChecksAt.toISOString() } : {}),
            // Which replica runs the shared jobs: one at a time on Postgres, always this one on SQLite.
            ...(scheduler ? { leader: scheduler.leading } : {}),
            ...(outbox ? { outbox } : {}),
          };
        },
      }),
    });
    const metricsServer = await startMetricsListener(metricsSettings, metrics.route, health, deps.log);
    delivery.start();
    // The embedded demo on its own (the console, the terminal) opens with last month's review in every
    // channel, something to answer at once; a real Slack or Teams is not sent threads for made-up teams.
    const jobs = jobTable(deps, { reviewAtStart: runtime.configPath === null && !remoteConfigured });
    await runFirstChecks(deps, jobs, say, metrics.observeJob);
    firstChecksAt = deps.clock();
    // Started alongside the checks above (Slack's answer workers); each platform bounds its own wait.
    await Promise.all(served.map((chat) => chat.ready?.()));

    scheduler = startScheduler(deps, jobs, { observe: metrics.observeJob });
    scheduler.describe().forEach((line) => say(`scheduled: ${line}`));
    const base = baseUrl(host, (server.address() as AddressInfo).port);
    served.flatMap((chat) => chat.listening?.(base) ?? []).forEach(say);
    say(describeMetrics(metricsServer, metricsSettings));
    say(
      `mcp: ${base}mcp for ${mcpTokens ? `${mcpTokens.size} token${mcpTokens.size === 1 ? '' : 's'} (BURNRATE_MCP_TOKENS), ` : ''}${mcpOAuth ? `access tokens of ${mcpOAuth.issuer} for ${mcpOAuth.resource}, ` : ''}the tokens \`burnrate mcp token create\` issues`,
    );
    say(`health: ${base}healthz — press Ctrl-C to stop`);
    started = true;

    say(`\nstopping (${await stop.received})`);
    await scheduler.stop();
    await delivery.stop();
    for (const chat of served) await chat.stop?.();
    for (const listener of [server, metricsServer]) {
      listener?.closeAllConnections();
      await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
    }
    // No new commands arrive now; the answers already acknowledged are finished and delivered.
    await closeChats();
    return 0;
  } finally {
    await closeChats();
    await runtime.close();
    releaseGuard();
    stop.release();
  }
};

/** A TCP port to listen on: a whole number from 0 (any free port) to 65535; anything else stops serve before it opens anything. */
function portOf(text: string, name: string): number {
  const port = /^\d{1,5}$/.test(text.trim()) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw usageError(`${name} must be a port number from 0 to 65535, got "${text}"`, USAGE);
  return port;
}

/** METRICS_HOST (loopback), METRICS_PORT (9464) and METRICS_TOKEN, checked before anything is opened. */
function readMetricsSettings(env: NodeJS.ProcessEnv): MetricsSettings {
  const chosen = env.METRICS_PORT !== undefined && env.METRICS_PORT.trim() !== '';
  const token = env.METRICS_TOKEN?.trim() || null;
  return {
    host: env.METRICS_HOST?.trim() || '127.0.0.1',
    port: chosen ? portOf(env.METRICS_PORT!, 'METRICS_PORT') : DEFAULT_METRICS_PORT,
    portChosen: chosen,
    token,
  };
}

/** Where Prometheus scrapes, and whether it needs the token (never the token). */
function describeMetrics(server: import('node:http').Server | null, settings: MetricsSettings): string {
  if (!server) return `metrics: off (port ${settings.port} on ${settings.host} is in use; set METRICS_PORT to serve them)`;
  const url = `${baseUrl(settings.host, (server.address() as AddressInfo).port)}metrics`;
  return `metrics: ${url}${settings.token ? ' — METRICS_TOKEN required as a bearer token' : ''}`;
}

function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}/`;
}
