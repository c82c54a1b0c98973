import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { Route } from '../../http/server.js';
import type { Block, Message } from '../../../templates/message.js';
import { escapeHtml } from '../../../templates/render/html.js';
import { HOME_CHANNEL, type ConsoleChat } from './console-chat.js';
import type { Dispatch } from '../../inbound/guarded-dispatch.js';
import { homeView } from '../../inbound/home-view.js';
import { baseActionId, SURFACE_ACTION_IDS } from '../../domain/action-ids.js';
import type { ConsoleMessage } from '../../store/console-messages.js';
import { busiestChannel, latestIds } from './console-activity.js';
import { consoleChannels, consoleUsers, defaultUser } from './console-directory.js';
import { streamConsoleEvents } from './console-events.js';
import { checkAccess, checkHost, HttpProblem, readJsonBody, SAFE_HEADERS, sendJson, tokenCookie } from './console-http.js';
import { actionInteraction, commandInteraction } from './console-interaction.js';
import { consoleCsp, renderConsolePage, renderTokenPage } from './console-page.js';
import { tokenMatches, type ConsoleSettings } from './console-settings.js';
import { renderStream } from './console-stream.js';
import { cardSdk, viewOf, type ConsoleView } from './console-teams-view.js';

const commandSchema = z.strictObject({
  as: z.string().min(1).max(200),
  channel: z.string().min(1).max(200),
  text: z.string().max(500),
});

const actionSchema = z.strictObject({
  as: z.string().min(1).max(200),
  action: z.string().min(1).max(255),
  value: z.string().max(2000),
  messageId: z.number().int().positive(),
});

/**
 * The console's routes, mounted on burnrate's one HTTP server: the page, its stream, live
 * events, and the two ways in (a command, a click). Commands and clicks become the same
 * Interactions the Slack adapter builds and go through the one dispatcher, so authorization,
 * refusals and the audit log are exactly those of chat.
 */
export function createConsoleRoutes(
  deps: Deps,
  options: { chat: ConsoleChat; settings: ConsoleSettings; dispatch: Dispatch },
): Map<string, Route> {
  const { chat, settings } = options;
  // Names as the chat platform's directory has them now: read per page, as it refreshes daily.
  const nameOf = (id: string) => chat.people?.nameOf(id);
  const users = consoleUsers(deps.config);
  const channels = consoleChannels(deps.config);
  const userIds = new Set(users.map((u) => u.id));
  const channelIds = new Set(channels.map((c) => c.id));

  const knownUser = (as: string) => {
    if (!userIds.has(as)) throw new HttpProblem(400, `as: unknown user "${as}"; act as one of ${[...userIds].join(', ')}`);
    return as;
  };
  const knownChannel = (channel: string) => {
    if (!channelIds.has(channel))
      throw new HttpProblem(400, `channel: unknown channel "${channel}"; use one of ${[...channelIds].join(', ')}`);
    return channel;
  };
  const streamOf = async (channel: string, as: string, view: ConsoleView = 'slack') =>
    renderStream(
      channel === HOME_CHANNEL ? [await homeMessage(deps, as, nameOf(as))] : await deps.store.console.list(channel, as),
      channels.find((c) => c.id === channel)!,
      view,
      nameOf,
    );

  const page: Route = async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://console');
    const given = url.searchParams.get('token');
    checkHost(req, settings);
    if (settings.token !== null && given !== null) {
      if (!tokenMatches(given, settings.token)) return sendHtml(res, 401, renderTokenPage());
      // Trade the token for a cookie and take it out of the address bar and the history.
      url.searchParams.delete('token');
      res.writeHead(303, { ...SAFE_HEADERS, location: `${url.pathname}${url.search}`, 'set-cookie': tokenCookie(settings.token, req) });
      res.end();
      return;
    }
    try {
      checkAccess(req, settings);
    } catch (error) {
      if (error instanceof HttpProblem && error.status === 401) return sendHtml(res, 401, renderTokenPage());
      throw error;
    }
    const as = userIds.has(url.searchParams.get('as') ?? '') ? url.searchParams.get('as')! : defaultUser(deps.config);
    const activity = await deps.store.console.activity(as);
    const channel = channelIds.has(url.searchParams.get('channel') ?? '')
      ? url.searchParams.get('channel')!
      : busiestChannel(channels, activity);
    const nonce = randomBytes(16).toString('base64');
    const view = viewOf(url.searchParams.get('view'));
    const html = renderConsolePage({
      nonce,
      view,
      users: consoleUsers(deps.config, nameOf),
      channels: consoleChannels(deps.config, nameOf),
      as,
      channel,
      latest: latestIds(channels, activity),
      streamHtml: await streamOf(channel, as, view),
    });
    sendHtml(res, 200, html, { 'content-security-policy': consoleCsp(nonce) });
  };

  const routes = new Map<string, Route>();
  routes.set('GET /', guarded(deps, page, true));
  routes.set('GET /console', guarded(deps, page, true));

  routes.set(
    'GET /console/events',
    guarded(deps, async (req, res) => {
      checkAccess(req, settings);
      streamConsoleEvents(chat, req, res);
    }),
  );

  routes.set(
    'GET /console/messages',
    guarded(deps, async (req, res) => {
      checkAccess(req, settings);
      const url = new URL(req.url ?? '/', 'http://console');
      const channel = knownChannel(url.searchParams.get('channel') ?? '');
      const as = knownUser(url.searchParams.get('as') ?? '');
      const html = await streamOf(channel, as, viewOf(url.searchParams.get('view')));
      // With the stream, what every channel holds for this viewer now: the page's unread markers follow it.
      sendJson(res, 200, { channel, html, latest: latestIds(channels, await deps.store.console.activity(as)) });
    }),
  );

  // Microsoft's card SDK, which draws the Teams view in the page (a nonce'd script of the page's own origin).
  routes.set(
    'GET /console/adaptivecards.js',
    guarded(deps, async (req, res) => {
      checkAccess(req, settings);
      const script = await cardSdk();
      if (script === null) throw new HttpProblem(404, 'the Teams view needs the adaptivecards package (npm install adaptivecards)');
      res.writeHead(200, { ...SAFE_HEADERS, 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'private, max-age=3600' });
      res.end(script);
    }),
  );

  routes.set(
    'POST /console/command',
    guarded(deps, async (req, res) => {
      checkAccess(req, settings);
      const body = parse(commandSchema, await readJsonBody(req));
      const as = knownUser(body.as);
      const channel = knownChannel(body.channel);
      // The page shows the /burnrate prefix; a user who types it anyway means the same command.
      const text = body.text.trim().replace(/^\/burnrate\b\s*/i, '');
      const echo = `/burnrate ${text}`.trim();
      await chat.whisper(channel, as, { summary: echo, blocks: [{ type: 'text', text: echo }] }, { author: as });
      await options.dispatch(deps, commandInteraction(chat, { as, channel, text }));
      sendJson(res, 200, { ok: true });
    }),
  );

  routes.set(
    'POST /console/action',
    guarded(deps, async (req, res) => {
      checkAccess(req, settings);
      const body = parse(actionSchema, await readJsonBody(req));
      const as = knownUser(body.as);
      const clicked = await deps.store.console.get(body.messageId);
      // Only a button that is on a message this user can see: the console never acts on a
      // forged action id or value, and never on someone else's private message.
      if (!clicked || (clicked.privateTo !== null && clicked.privateTo !== as))
        throw new HttpProblem(400, `messageId: no message ${body.messageId} in this console`);
      if (!hasButton(clicked.message, body.action, body.value))
        throw new HttpProblem(400, `action: message ${clicked.id} has no ${body.action} button with that value`);
      await options.dispatch(deps, actionInteraction(chat, { as, action: body.action, value: body.value }, clicked));
      sendJson(res, 200, { ok: true });
    }),
  );
  return routes;
}

/**
 * Turns refusals into JSON (or a plain page) with a clear sentence, and anything unexpected into
 * a 500 that says nothing internal. Access is checked inside each route so that the page route
 * can first trade a `?token=` for its cookie.
 */
function guarded(deps: Deps, route: Route, isPage = false): Route {
  return async (req: IncomingMessage, res: ServerResponse) => {
    try {
      await route(req, res);
    } catch (error) {
      if (res.headersSent) return void res.end();
      if (error instanceof HttpProblem) {
        if (isPage) return sendHtml(res, error.status, `<!doctype html><title>burnrate console</title><p>${escapeHtml(error.message)}</p>`);
        return sendJson(res, error.status, { error: error.message });
      }
      deps.log.error({ err: (error as Error).message, path: req.url?.split('?')[0] }, 'console request failed');
      sendJson(res, 500, { error: 'burnrate failed to handle this request; see its log' });
    }
  };
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'body';
  throw new HttpProblem(400, `${where}: ${issue?.message ?? 'invalid request'}`);
}

/** A button, or an option of a select (shown as buttons in the page), on the message. */
function hasButton(message: Message, action: string, value: string): boolean {
  return message.blocks.some(
    (b) =>
      b.type === 'actions' &&
      (b.buttons.some((button) => button.action === action && button.value === value) ||
        (b.select?.action === action && b.select.options.some((option) => option.value === value))),
  );
}

function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...SAFE_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'",
    ...headers,
  });
  res.end(html);
}

/**
 * The Home view: the same dashboard as Slack's App Home, for the user acted as, drawn on each
 * request. Its Edit budget button opens a Slack form, which the console does not have: left out
 * (`/burnrate budget set` does the same from the command box).
 */
async function homeMessage(deps: Deps, as: string, name: string | undefined): Promise<ConsoleMessage> {
  const view = await homeView(deps, { userId: as, platform: 'console', ...(name ? { name } : {}) });
  const blocks = view.blocks.flatMap((block): Block[] => {
    if (block.type !== 'actions') return [block];
    const buttons = block.buttons.filter((b) => baseActionId(b.action) !== SURFACE_ACTION_IDS.budgetEdit);
    return buttons.length > 0 || block.select ? [{ ...block, buttons }] : [];
  });
  const now = deps.clock().toISOString();
  return {
    id: 0,
    channel: HOME_CHANNEL,
    parentId: null,
    privateTo: as,
    author: null,
    message: { ...view, blocks },
    createdAt: now,
    updatedAt: now,
  };
}
