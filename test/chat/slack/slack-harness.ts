import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Answerer } from '../../../src/chat/slack/answer/answerer.js';
import { dispatch as realDispatch } from '../../../src/inbound/dispatcher.js';
import type { Interaction } from '../../../src/ports/interaction.js';
import { createSlackApp, type Dispatch, type SlackApp } from '../../../src/chat/slack/slack-app.js';
import { HistoryReader } from '../../../src/chat/slack/history-reader.js';
import { SlackChat } from '../../../src/chat/slack/slack-chat.js';
import { createSlackClient } from '../../../src/chat/slack/slack-client.js';
import { SlackDirectory } from '../../../src/chat/slack/slack-directory.js';
import { readSlackSettings } from '../../../src/chat/slack/slack-settings.js';
import type { Deps } from '../../../src/deps.js';
import { startHttpServer } from '../../../src/http/server.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { TEST_SIGNING_SECRET } from '../../support/slack-request.js';

export const TEST_BOT_TOKEN = 'xoxb-0000-test-token-do-not-log';

/** The environment `burnrate serve` would read, aimed at the fake Web API. */
export function slackEnv(fake: FakeSlackApi, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { SLACK_BOT_TOKEN: TEST_BOT_TOKEN, SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET, SLACK_API_URL: fake.apiUrl, ...extra };
}

/**
 * A SlackChat on a real WebClient, configured as serve configures it, talking to the fake; its
 * history read as `history` says (by default as serve's default, one call a minute on the real clock).
 */
export function slackChat(fake: FakeSlackApi, deps: Pick<Deps, 'log'>, history = new HistoryReader('limited')): SlackChat {
  const client = createSlackClient(readSlackSettings(slackEnv(fake))!, deps.log);
  return new SlackChat(client, new SlackDirectory(client, deps.log), history);
}

/**
 * Wraps a dispatcher so a test sees every interaction handed on and the promise of its handling,
 * and can wait for the work that happens after the ack.
 */
export function recordDispatch(dispatch: Dispatch) {
  const dispatched: { interaction: Interaction; done: Promise<void> }[] = [];
  return {
    dispatched,
    dispatch: ((d, interaction) => {
      const done = dispatch(d, interaction);
      dispatched.push({ interaction, done });
      return done;
    }) as Dispatch,
    /** Waits until every dispatched interaction has been handled. */
    settled: () => Promise.all(dispatched.map((d) => d.done)),
  };
}

/** Real Bolt in HTTP mode, mounted on burnrate's own HTTP server on 127.0.0.1. */
export async function startSlackServer(deps: Deps, fake: FakeSlackApi, dispatch: Dispatch = realDispatch, answerer?: Answerer) {
  const recorded = recordDispatch(dispatch);
  deps.chat = [slackChat(fake, deps)];
  const slack: SlackApp = createSlackApp(deps, { env: slackEnv(fake), dispatch: recorded.dispatch, ...(answerer ? { answerer } : {}) });
  const server: Server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    routes: slack.routes,
    health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
  });
  const { port } = server.address() as AddressInfo;
  return {
    ...recorded,
    slack,
    url: `http://127.0.0.1:${port}/slack/events`,
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Real Bolt in Socket Mode, built and started as `burnrate serve` does (SLACK_APP_TOKEN set,
 * SLACK_API_URL at the fake), connected to the fake socket: resolves once Slack said hello.
 */
export async function startSlackSocket(deps: Deps, fake: FakeSlackApi, appToken: string, dispatch: Dispatch = realDispatch) {
  const recorded = recordDispatch(dispatch);
  deps.chat = [slackChat(fake, deps)];
  const slack: SlackApp = createSlackApp(deps, {
    env: slackEnv(fake, { SLACK_APP_TOKEN: appToken, SLACK_SIGNING_SECRET: '' }),
    dispatch: recorded.dispatch,
  });
  await slack.start();
  return { ...recorded, slack, close: () => slack.stop() };
}

export { waitFor } from '../../support/wait-for.js';
