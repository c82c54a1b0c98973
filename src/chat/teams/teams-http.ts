import type { IncomingMessage } from 'node:http';
import type { Activity, TurnContext } from 'botbuilder';
import type { Logger } from 'pino';
import { json, type Route } from '../../http/server.js';
import type { TeamsAdapter } from './teams-adapter.js';

/** Where the Bot Connector posts activities (the Azure Bot's "Messaging endpoint"). */
export const TEAMS_MESSAGES_PATH = '/api/messages';
/** Teams activities are a few KB; a card invoke stays well under this. Anything larger is refused unread. */
const MAX_BODY_BYTES = 1024 * 1024;
/** What botframework-connector and jsonwebtoken throw when a request's token does not hold. */
const AUTH_FAILURES = new Set(['AuthenticationError', 'JsonWebTokenError', 'NotBeforeError', 'TokenExpiredError']);

/**
 * `POST /api/messages` on burnrate's own HTTP server: reads the activity, lets the adapter
 * authenticate it (401 when that fails, before anything runs), runs the turn and answers with an
 * invoke's response body, or 200.
 */
export function teamsMessagesRoute(adapter: TeamsAdapter, logic: (context: TurnContext) => Promise<void>, log: Logger): Route {
  return async (req, res) => {
    let activity: Activity;
    try {
      activity = readActivity(await readBody(req));
    } catch (error) {
      json(res, (error as BodyError).status ?? 400, { error: (error as Error).message });
      return;
    }
    const authHeader = String(req.headers.authorization ?? '');
    try {
      const answer = await adapter.run(authHeader, activity, logic);
      json(res, answer?.status ?? 200, answer?.body ?? {});
    } catch (error) {
      if (AUTH_FAILURES.has((error as Error).constructor?.name) || AUTH_FAILURES.has((error as Error).name)) {
        log.warn({ err: (error as Error).message, type: activity.type }, 'teams request not authenticated');
        json(res, 401, { error: 'unauthorized' });
        return;
      }
      log.error({ err: (error as Error).message, type: activity.type }, 'teams request failed');
      json(res, 500, { error: 'internal error' });
    }
  };
}

class BodyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyError(`request body over ${MAX_BODY_BYTES} bytes`, 413);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The activity, with its times as Dates as botbuilder expects (what CloudAdapter.process does too). */
function readActivity(text: string): Activity {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BodyError('request body is not JSON', 400);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new BodyError('request body is not a JSON object (an activity)', 400);
  const activity = parsed as Record<string, unknown>;
  if (typeof activity.type !== 'string') throw new BodyError('activity has no type', 400);
  for (const key of ['timestamp', 'localTimestamp', 'expiration']) {
    if (typeof activity[key] === 'string') activity[key] = new Date(activity[key]);
  }
  return activity as unknown as Activity;
}
