import { Activity, ActivityTypes } from '@microsoft/agents-activity';
import type { TurnContext } from '@microsoft/agents-hosting';
import type { Deps } from '../../deps.js';
import { BurnrateError } from '../../domain/errors.js';
import type { Route } from '../../http/server.js';
import { dispatchGuarded, type Dispatch } from '../../inbound/guarded-dispatch.js';
import { cardActivity } from './teams-card.js';
import { CardActionReply, commandReply } from './teams-reply.js';
import { TeamsChat } from './teams-chat.js';
import { conversationKey, rememberConversation, threadRoot } from './teams-conversations.js';
import { TEAMS_MESSAGES_PATH, teamsMessagesRoute } from './teams-http.js';
import { actionInteraction, CARD_ACTION_INVOKE, commandInteraction } from './teams-interaction.js';

export type { Dispatch };

const TEAMS = { name: 'Teams' };

export interface TeamsApp {
  /** `POST /api/messages`, to mount on burnrate's own HTTP server. */
  readonly routes: Map<string, Route>;
  /** The bot's logic for one turn. */
  readonly onTurn: (context: TurnContext) => Promise<void>;
  /** One line for the operator: where Teams calls in and whether requests are authenticated. */
  describe(): string;
}

/**
 * The Teams bot: every activity the connector posts is one turn. Messages become commands,
 * Action.Execute invokes become button actions, and both go to the one dispatcher; every turn
 * remembers its conversation, so alerts can reach it later. The turn is awaited before the HTTP
 * answer, because an invoke's answer carries the refreshed card.
 */
export function createTeamsApp(deps: Deps, options: { dispatch: Dispatch; authenticated: boolean }): TeamsApp {
  const chat = deps.chat.find((port): port is TeamsChat => port instanceof TeamsChat);
  if (!chat)
    throw new BurnrateError(
      'burnrate_teams_not_configured',
      'Teams is not configured',
      'Set MICROSOFT_APP_ID, MICROSOFT_APP_TENANT_ID and a credential (docs/teams.md).',
      2,
    );

  const onTurn = async (context: TurnContext): Promise<void> => {
    const { activity } = context;
    if (activity.type === ActivityTypes.Message || activity.type === ActivityTypes.Invoke || isInstall(context)) {
      // Answering matters more than remembering: a store failure here is logged, the turn goes on.
      await rememberConversation(deps.store.conversations, activity, deps.clock()).catch((error: Error) =>
        deps.log.warn({ err: error.message }, 'teams conversation not remembered'),
      );
    }
    if ((activity.type === ActivityTypes.Message || activity.type === ActivityTypes.Invoke) && !(await firstDelivery(deps, activity.id))) {
      deps.log.info({ type: activity.type }, 'teams duplicate delivery dropped');
      if (activity.type === ActivityTypes.Invoke) await context.sendActivity(invokeResponse({ status: 200 }));
      return;
    }
    if (activity.type === ActivityTypes.Message) {
      const reply = commandReply(context);
      await dispatchGuarded(deps, options.dispatch, reply, () => commandInteraction(activity, reply), TEAMS);
    } else if (activity.type === ActivityTypes.Invoke && activity.name === CARD_ACTION_INVOKE) {
      // readActivity refused any activity without a conversation id before the turn.
      const conversationId = activity.conversation?.id ?? '';
      const conversation = conversationKey(conversationId);
      // In a reply chain (a review's lines) thread posts join the chain; on a top-level card, its own.
      const parent = threadRoot(conversationId) ?? activity.replyToId;
      const reply = new CardActionReply(async (message) => {
        if (parent) await chat.reply(conversation, parent, message);
        else await context.sendActivity(cardActivity(message));
      });
      await dispatchGuarded(deps, options.dispatch, reply, () => actionInteraction(activity, reply), TEAMS);
      await context.sendActivity(invokeResponse({ status: 200, body: reply.invokeResponse() }));
    }
  };

  return {
    routes: new Map([[`POST ${TEAMS_MESSAGES_PATH}`, teamsMessagesRoute(chat.adapter, onTurn, deps.log)]]),
    onTurn,
    describe: () =>
      options.authenticated
        ? `teams: Bot Framework activities arrive at POST ${TEAMS_MESSAGES_PATH} on this server (authenticated)`
        : `teams: POST ${TEAMS_MESSAGES_PATH} WITHOUT authentication (BURNRATE_INSECURE_DEV=1)`,
  };
}

/** What the SDK answers an invoke with: the turn hands it over as an `invokeResponse` activity. */
function invokeResponse(value: { status: number; body?: unknown }): Activity {
  return Activity.fromObject({ type: ActivityTypes.InvokeResponse, value });
}

/** How long an activity id is remembered: the connector retries within seconds, never after. */
const REMEMBER_ACTIVITIES_MS = 10 * 60_000;

/**
 * False for an activity already taken by this or another replica (the connector redelivered it,
 * or a load balancer retried it elsewhere). When the database cannot say, the activity runs: an
 * action's own claim still keeps it from acting twice.
 */
async function firstDelivery(deps: Deps, id: string | undefined): Promise<boolean> {
  if (!id) return true;
  try {
    return await deps.store.claims.firstDelivery([`teams:${id}`], deps.clock(), REMEMBER_ACTIVITIES_MS);
  } catch (error) {
    deps.log.warn({ err: (error as Error).message }, 'teams delivery claim failed; handling the activity');
    return true;
  }
}

/** The app was added to a team, a group chat or someone's personal scope. */
function isInstall(context: TurnContext): boolean {
  const { activity } = context;
  if (activity.type === ActivityTypes.InstallationUpdate) return activity.action === undefined || activity.action.startsWith('add');
  if (activity.type === ActivityTypes.ConversationUpdate) return (activity.membersAdded ?? []).some((m) => m.id === activity.recipient?.id);
  return false;
}
