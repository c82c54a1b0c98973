import { once } from 'node:events';
import { dispatch } from '../chat/dispatcher.js';
import { createSlackApp } from '../chat/slack/slack-app.js';
import { SlackChat } from '../chat/slack/slack-chat.js';
import { createSlackClient } from '../chat/slack/slack-client.js';
import { readSlackSettings } from '../chat/slack/slack-settings.js';
import { startHttpServer } from '../http/server.js';
import { runBudgetCheck } from '../jobs/budget-check.js';
import { deliverOutbox } from '../jobs/deliver-outbox.js';
import { refreshSources } from '../jobs/refresh-sources.js';
import { buildRuntime } from '../main.js';
import { startScheduler } from '../scheduler.js';
import { COMMON_OPTIONS, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';

const USAGE = 'burnrate serve [--config FILE] [--db FILE] [--port N] [--host ADDRESS]';

/**
 * Runs burnrate until Ctrl-C:
 *   1. open config and store; connect Slack when SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are set,
 *      else (no chat platform configured) messages print to this terminal
 *   2. fill an empty store from the configured sources (the demo organisation by default)
 *   3. run the budget check once and deliver its alerts
 *   4. answer /healthz and /readyz
 *   5. keep the scheduler running; exit cleanly on SIGINT or SIGTERM
 */
export const serveVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, port: { type: 'string' }, host: { type: 'string' } }, USAGE);
  // Read first: a half-configured Slack fails here, before anything is opened.
  const slack = readSlackSettings(io.env);
  const runtime = buildRuntime({ configPath: values.config, dbPath: values.db, env: io.env, cwd: io.cwd, terminal: slack ? undefined : io.out, ...(io.clock ? { clock: io.clock } : {}) });
  const { deps } = runtime;
  const say = (line: string) => io.out.write(`${line}\n`);
  try {
    say(`burnrate: ${runtime.configPath ?? 'embedded demo organisation (no burnrate.yml)'}, database ${runtime.dbPath}`);
    if (slack) deps.chat.push(new SlackChat(createSlackClient(slack, deps.log)));
    const slackApp = slack ? createSlackApp(deps, { env: io.env, dispatch }) : null;
    await slackApp?.start();
    say(slackApp?.describe() ?? 'chat: none configured (set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET for Slack), messages print here');
    const empty = await deps.store.isEmpty();
    const refreshed = await refreshSources(deps);
    for (const r of refreshed) {
      say(r.ok ? `source ${r.source}: ${r.summary?.rowsInserted ?? 0} daily rows${empty ? ' (first load)' : ''}` : `source ${r.source} failed: ${r.error}`);
    }

    const check = await runBudgetCheck(deps);
    say(`budget check: ${check.findings.length} open finding(s), ${check.alerts.length} new alert(s)`);
    await deliverOutbox(deps);

    const port = Number(values.port ?? io.env.PORT ?? 3000);
    const host = values.host ?? io.env.HOST ?? '127.0.0.1';
    const scheduler = startScheduler(deps, {
      budgetCheck: async (teams) => {
        await refreshSources(deps);
        await runBudgetCheck(deps, { teams });
        await deliverOutbox(deps);
      },
      deliver: async () => {
        await deliverOutbox(deps);
      },
    });
    const server = await startHttpServer({
      host,
      port,
      routes: slackApp?.routes,
      health: {
        alive: () => true,
        ready: async () => {
          const database = await deps.store.isEmpty().then(() => true, () => false);
          return { ok: database && scheduler.running, checks: { database, scheduler: scheduler.running } };
        },
      },
    });
    scheduler.describe().forEach((line) => say(`scheduled: ${line}`));
    say(`health: http://${host}:${port}/healthz — press Ctrl-C to stop`);

    const signal = await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
    say(`\nstopping (${String(signal[0] ?? 'signal')})`);
    await scheduler.stop();
    await slackApp?.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return 0;
  } finally {
    await runtime.close();
  }
};
