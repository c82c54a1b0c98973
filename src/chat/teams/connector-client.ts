import type { Activity, ChannelAccount, ConversationParameters, TurnContext } from 'botbuilder';

/**
 * The part of botframework-connector's ConnectorClient burnrate uses. botbuilder creates the
 * client for each turn (with the right credentials for the conversation's service URL) and keeps
 * it in the turn state; it does not re-export the type, so this names what we call.
 */
export interface ConnectorConversations {
  sendToConversation(conversationId: string, activity: Partial<Activity>): Promise<{ id?: string }>;
  updateActivity(conversationId: string, activityId: string, activity: Partial<Activity>): Promise<{ id?: string }>;
  /** POST /v3/conversations: a new conversation (a 1:1 chat with a person); Teams answers with its id. */
  createConversation(parameters: ConversationParameters): Promise<{ id?: string; serviceUrl?: string; activityId?: string }>;
  getConversationPagedMembers(
    conversationId: string,
    options?: { pageSize?: number; continuationToken?: string },
  ): Promise<{ members?: ChannelAccount[]; continuationToken?: string }>;
}

interface ConnectorClientLike {
  conversations: ConnectorConversations;
  /** @azure/core-client's ServiceClient underneath, whose pipeline retries by itself. */
  client?: { pipeline?: { removePolicy(options: { name: string }): unknown } };
}

/** Name of @azure/core-rest-pipeline's retry policy (429 with Retry-After, 5xx, network errors). */
const SDK_RETRY_POLICY = 'defaultRetryPolicy';

/**
 * The turn's connector client, without the SDK's own retries: for outbox delivery a throttle or an
 * outage must come back at once as a failure, so the outbox schedules the next attempt in SQLite
 * (which survives a restart) instead of a request sleeping in memory through Retry-After three times.
 */
export function connectorWithoutRetries(context: TurnContext): ConnectorConversations {
  const connector = context.turnState.get<ConnectorClientLike | undefined>(context.adapter.ConnectorClientKey);
  if (!connector) throw new Error('no connector client in the turn');
  connector.client?.pipeline?.removePolicy({ name: SDK_RETRY_POLICY });
  return connector.conversations;
}
