import type { TurnContext } from '@microsoft/agents-hosting';
import type { Logger } from 'pino';
import { BodyError, readBody } from '../../http/read-body.js';
import { json, type Route } from '../../http/server.js';
import { ActivityError, readActivity } from './teams-activity-check.js';
import type { TeamsAdapter } from './teams-adapter.js';
import { ChannelTokenError } from './channel-token.js';

/** Where the Bot Connector posts activities (the Azure Bot's "Messaging endpoint"). */
export const TEAMS_MESSAGES_PATH = '/api/messages';
/** Teams activities are a few KB; a card invoke stays well under this. Anything larger is refused unread. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * `POST /api/messages` on burnrate's own HTTP server: reads the activity (413 when too large, 400
 * with the reason when it is not a well-formed activity), lets the adapter authenticate it (401
 * when that fails, before anything runs), runs the turn and answers with an invoke's response
 * body, or 200.
 */
export function teamsMessagesRoute(adapter: TeamsAdapter, logic: (context: TurnContext) => Promise<void>, log: Logger): Route {
  return async (req, res) => {
    let activity: Record<string, unknown>;
    try {
      activity = readActivity((await readBody(req, MAX_BODY_BYTES)).toString('utf8'));
    } catch (error) {
      const status = error instanceof BodyError ? error.status : 400;
      // Only our own reasons go back; anything else unexpected is a bare 400.
      const reason = error instanceof BodyError || error instanceof ActivityError ? error.message : 'request body could not be read';
      log.warn({ status, reason }, 'teams request refused');
      json(res, status, { error: reason });
      return;
    }
    const authHeader = String(req.headers.authorization ?? '');
    try {
      const answer = await adapter.run(authHeader, activity, logic);
      json(res, answer.status, answer.body);
    } catch (error) {
      if (error instanceof ChannelTokenError) {
        log.warn({ err: (error as Error).message, type: activity.type }, 'teams request not authenticated');
        json(res, 401, { error: 'unauthorized' });
        return;
      }
      log.error({ err: (error as Error).message, type: activity.type }, 'teams request failed');
      json(res, 500, { error: 'internal error' });
    }
  };
}
