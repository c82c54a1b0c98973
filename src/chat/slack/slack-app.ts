import { SURFACE_ACTION_IDS } from '../../domain/action-ids.js';
import { App, HTTPReceiver, type BlockAction } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import type { Deps } from '../../deps.js';
import { BurnrateError } from '../../domain/errors.js';
import type { Route } from '../../http/server.js';
import type { Answerer } from './answer/answerer.js';
import { inProcessAnswerer } from './answer/in-process-answerer.js';
import { dispatchGuarded, type Dispatch } from '../../inbound/guarded-dispatch.js';
import { createSlackClient, slackClientOptions } from './slack-client.js';
import { SlackChat } from './slack-chat.js';
import { actionInteraction, clickedMessage } from './slack-interaction.js';
import { HOME_ACTION, registerHome } from './slack-home.js';
import { slackEventsRoute } from './slack-http.js';
import { slackLogger } from './slack-logger.js';
import { messageReply } from './slack-reply.js';
import { RecentDeliveries } from './recent-deliveries.js';
import { deliveryGuard, dropRedeliveries } from './redelivery.js';
import { directCommands, slashCommandIntake } from './slash-command-intake.js';
import { readSlackSettings } from './slack-settings.js';
import { redactTokens } from './slack-tokens.js';
import { createSocketReceiver } from './socket-receiver.js';
import { SLACK_REQUEST_TOLERANCE_MS } from './verify-slack-request.js';

/** Where Slack sends slash commands, button clicks and events in HTTP mode (the "HTTP mode" lines of manifest.yml). */
export const SLACK_EVENTS_PATH = '/slack/events';
export const SLACK_COMMAND = '/burnrate';

/** A link button's click: Slack opens the page and tells the app, which only acknowledges it. */
const LINK_ACTION = new RegExp(`^${SURFACE_ACTION_IDS.link.replace('.', '\\.')}(:\\d+)?$`);
/** Every other button: neither the App Home's nor a link. */
const NOT_HOME_ACTION = new RegExp(`^(?!${HOME_ACTION.source.slice(1)})(?!${LINK_ACTION.source.slice(1)})`);

export type { Dispatch };

/** Errors logged from Slack requests never carry a token. */
const SLACK = { name: 'Slack', redact: redactTokens };

/**
 * How long a delivery's keys are remembered: twice the timestamp tolerance, because a request
 * signed up to 5 minutes ahead stays acceptable until 5 minutes after that.
 */
const REMEMBER_DELIVERIES_MS = 2 * SLACK_REQUEST_TOLERANCE_MS;
/** A few MB at most, far more deliveries than one workspace sends in ten minutes. */
const MAX_REMEMBERED_DELIVERIES = 20_000;

export interface SlackAppOptions {
  env: NodeJS.ProcessEnv;
  dispatch: Dispatch;
  answerer?: Answerer;
  /**
   * The real time in ms, for Slack's request timestamps and the duplicate window. Not deps.clock,
   * which BURNRATE_NOW may have moved to a demo moment while Slack signs with the real time.
   */
  now?: () => number;
}

export interface SlackApp {
  /** `http`: Slack calls our server; `socket`: we hold a WebSocket to Slack (no public URL). */
  readonly mode: 'http' | 'socket';
  readonly app: App;
  /** HTTP mode: `POST /slack/events` to mount on burnrate's own HTTP server. Empty in Socket Mode. */
  readonly routes: Map<string, Route>;
  /** One line for the operator: which mode is on and what Slack needs from them. */
  describe(): string;
  /** Socket Mode: connects to Slack. HTTP mode: nothing to do, our server already listens. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The Bolt app: receives slash commands and button clicks, acknowledges them at once (Slack gives
 * up after 3 s), translates them to Interactions and hands them to the dispatcher.
 */
export function createSlackApp(deps: Deps, options: SlackAppOptions): SlackApp {
  const settings = readSlackSettings(options.env);
  if (!settings) {
    throw new BurnrateError(
      'burnrate_slack_not_configured',
      'Slack is not configured',
      'Set SLACK_BOT_TOKEN with SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode).',
      2,
    );
  }
  const logger = slackLogger(deps.log);
  const common = {
    // A fixed authorization instead of `token`: Bolt would otherwise call auth.test from its
    // constructor, and a failed call there is an unhandled rejection that kills the process.
    authorize: async () => ({ botToken: settings.botToken }),
    logger,
    // Bolt's client answers a person now (or opens the socket): a couple of quick retries, no queue.
    clientOptions: { ...slackClientOptions(settings, deps.log), retryConfig: { retries: 2 } },
    convoStore: false as const,
  };

  const { appToken, signingSecret } = settings;
  const socket = appToken ? createSocketReceiver({ ...settings, appToken }, deps.log) : null;
  const now = options.now ?? Date.now;
  // Bolt's own check is off because slackEventsRoute verifies every request before Bolt sees it,
  // in both directions of time and on the injected clock; Bolt's checks only staleness.
  const receiver = socket
    ? null
    : new HTTPReceiver({ signingSecret: signingSecret ?? '', endpoints: SLACK_EVENTS_PATH, logger, signatureVerification: false });
  const app = new App({ ...common, receiver: socket?.receiver ?? receiver ?? undefined });
  // Edits and thread replies use the same port as alerts, so they render and fail the same way.
  const chat = deps.chat.find((port) => port instanceof SlackChat) ?? new SlackChat(createSlackClient(settings, deps.log));

  app.error(async (error) => {
    deps.log.error({ err: redactTokens(error.message), code: error.code }, 'slack request failed');
  });

  // First in the chain: a retry or a repeated delivery is acknowledged and runs nothing.
  const recent = new RecentDeliveries({ ttlMs: REMEMBER_DELIVERIES_MS, max: MAX_REMEMBERED_DELIVERIES, now });
  // Replicas share their claims through the store. One process needs only its memory, and a SQLite
  // write here could wait on another connection's lock before the acknowledgement.
  const shared = deps.store.shared
    ? (keys: readonly string[]) => deps.store.claims.firstDelivery(keys, new Date(now()), REMEMBER_DELIVERIES_MS)
    : undefined;
  const guard = deliveryGuard(recent, deps.log, shared);
  app.use(dropRedeliveries(guard));

  // Commands are answered by the answerer (worker threads when the database allows), so the
  // event loop that acknowledges never computes an answer; buttons are rarer and stay here.
  // Over HTTP, commands never reach Bolt (slackEventsRoute hands them to directCommands); in Socket
  // Mode they are taken by a global middleware, which ends the request there: Bolt runs the
  // middleware chain of every listener (App Home, its buttons, the modal, other buttons) for every
  // request, and that work, and the garbage it leaves, would otherwise come with every command.
  const intake = slashCommandIntake(deps, options.answerer ?? inProcessAnswerer(deps, options.dispatch));
  app.use(async (args) => {
    if (!('command' in args) || args.command.command !== SLACK_COMMAND) return args.next();
    const { command, ack, respond, client } = args;
    await intake(command, ack, { respond, client, chat });
  });

  registerHome(app, deps, options.dispatch);

  app.action<BlockAction>({ type: 'block_actions', action_id: LINK_ACTION }, async ({ ack }) => {
    await ack();
  });

  // Every other button goes to the dispatcher; those of the App Home open Slack-only surfaces.
  app.action<BlockAction>({ type: 'block_actions', action_id: NOT_HOME_ACTION }, async ({ body, ack, respond, client }) => {
    await ack();
    const where = { channel: body.container?.channel_id ?? body.channel?.id ?? null, userId: body.user?.id ?? '' };
    const reply = messageReply({ respond, client, chat }, where, clickedMessage(body));
    await dispatchGuarded(deps, options.dispatch, reply, () => actionInteraction(body, reply), SLACK);
  });

  const routes = new Map<string, Route>();
  if (receiver) {
    // The client Bolt would hand a command's listener: the bot token, a couple of quick retries.
    const client = new WebClient(settings.botToken, common.clientOptions);
    const commands = directCommands({ command: SLACK_COMMAND, guard, intake, tools: { client, chat }, log: deps.log });
    routes.set(
      `POST ${SLACK_EVENTS_PATH}`,
      slackEventsRoute(receiver, { signingSecret: signingSecret ?? '', now, log: deps.log, commands }),
    );
  }

  return {
    mode: receiver ? 'http' : 'socket',
    app,
    routes,
    describe: () =>
      receiver
        ? `slack: HTTP mode, Slack requests arrive at POST ${SLACK_EVENTS_PATH} on this server`
        : 'slack: Socket Mode, connected out to Slack (no public URL needed)',
    start: async () => {
      if (!socket) return;
      try {
        // A refused token ends the wait at once; the client would otherwise keep retrying it.
        const refusal = socket.refused.then((code) => Promise.reject(new Error(`apps.connections.open answered ${code}`)));
        await Promise.race([app.start(), refusal]);
      } catch (error) {
        await app.stop().catch(() => {});
        throw new BurnrateError(
          'burnrate_slack_connect_failed',
          `cannot open the Slack Socket Mode connection: ${redactTokens((error as Error).message)}`,
          'Check SLACK_APP_TOKEN (an app-level token with the connections:write scope) and that this machine can reach slack.com.',
          1,
        );
      }
    },
    stop: async () => {
      if (!receiver) await app.stop();
    },
  };
}
