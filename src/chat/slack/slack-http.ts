import type { HTTPReceiver } from '@slack/bolt';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { BodyError, readBody } from '../../http/read-body.js';
import { json, type Route } from '../../http/server.js';
import { isSslCheck, readSlackBody } from './slack-body.js';
import { verifySlackRequest } from './verify-slack-request.js';

/**
 * Slack's interactive payloads are a few KB, a message with all its blocks some tens of KB.
 * Anything over this is refused before it is read into memory.
 */
export const MAX_SLACK_BODY_BYTES = 1024 * 1024;

/**
 * `POST /slack/events`: every request is read, verified and checked here before Bolt sees it.
 *   1. read the body (413 over MAX_SLACK_BODY_BYTES, 400 if the upload breaks off)
 *   2. Slack's SSL probe: 200, nothing runs
 *   3. signature and timestamp within 5 minutes of `now` in either direction, else 401
 *   4. a body Bolt can route without throwing, else 400 with the reason
 *   5. a slash command of ours: taken here (`commands`), without Bolt
 *   6. anything else: hand the buffered request to Bolt, which then neither re-reads nor re-verifies it
 */
export function slackEventsRoute(
  receiver: HTTPReceiver,
  options: {
    signingSecret: string;
    now: () => number;
    log: Logger;
    /** Takes a slash command before Bolt does (slash-command-intake.ts); false leaves it to Bolt. */
    commands?: (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  },
): Route {
  return async (req, res) => {
    let raw: Buffer;
    try {
      raw = await readBody(req, MAX_SLACK_BODY_BYTES);
    } catch (error) {
      return refuse(res, options.log, error instanceof BodyError ? error.status : 400, (error as Error).message);
    }
    const contentType = req.headers['content-type'];
    if (isSslCheck(raw, contentType)) return void res.writeHead(200).end();

    const verdict = verifySlackRequest(req.headers, raw, options.signingSecret, options.now());
    if (!verdict.ok) return refuse(res, options.log, 401, verdict.reason);
    const body = readSlackBody(raw, contentType);
    if (!body.ok) return refuse(res, options.log, 400, body.reason);
    if (options.commands && typeof body.body.command === 'string' && (await options.commands(body.body, req, res))) return;

    // Bolt's bufferIncomingMessage takes a request whose rawBody is already a Buffer as read.
    (req as IncomingMessage & { rawBody?: Buffer }).rawBody = raw;
    listen(receiver, req, res);
  };
}

/** A short reason for the caller, a warning for the operator; never the body, which may hold user text. */
function refuse(res: ServerResponse, log: Logger, status: number, reason: string): void {
  log.warn({ status, reason }, 'slack request refused');
  if (!res.headersSent) json(res, status, { error: reason });
}

/**
 * Bolt's HTTPReceiver exposes its request listener, so it runs on our server beside /healthz
 * without `app.start()` opening a second port. It throws synchronously for paths it does not
 * own; our route only ever sends it its own path, but a throw must not escape the server.
 */
function listen(receiver: HTTPReceiver, req: IncomingMessage, res: ServerResponse): void {
  try {
    receiver.requestListener(req, res);
  } catch {
    if (!res.headersSent) {
      res.writeHead(404);
      res.end();
    }
  }
}
