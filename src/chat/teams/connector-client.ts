import type { Activity, ChannelAccount, ConversationParameters } from '@microsoft/agents-activity';
import type { ConnectorClient, TurnContext } from '@microsoft/agents-hosting';

/** A page of a conversation's roster, as GET /v3/conversations/{id}/pagedmembers answers. */
export interface PagedMembers {
  members?: (ChannelAccount & Record<string, unknown>)[];
  continuationToken?: string;
}

/** The Bot Connector calls burnrate makes, on the client the SDK signed in for the turn. */
export interface ConnectorConversations {
  sendToConversation(conversationId: string, activity: Activity): Promise<{ id?: string }>;
  updateActivity(conversationId: string, activityId: string, activity: Activity): Promise<{ id?: string }>;
  /** POST /v3/conversations: a new conversation (a 1:1 chat with a person); Teams answers with its id. */
  createConversation(parameters: ConversationParameters): Promise<{ id?: string; serviceUrl?: string; activityId?: string }>;
  pagedMembers(conversationId: string, options: { pageSize: number; continuationToken?: string }): Promise<PagedMembers>;
}

/**
 * The turn's connector client: the SDK creates it for each turn (with a token for the
 * conversation's service URL) and keeps it in the turn state. It sends one request per call and
 * never retries by itself: for outbox delivery a throttle or an outage must come back at once as a
 * failure, so the outbox schedules the next attempt in the database (which survives a restart).
 * Ids go into the path encoded (the SDK puts them in as they are; a channel thread's id holds `;`
 * and `=`), as the Bot Connector's own clients send them.
 */
export function turnConnector(context: TurnContext): ConnectorConversations {
  const connector = context.turnState.get<ConnectorClient | undefined>(context.adapter.ConnectorClientKey);
  if (!connector) throw new Error('no connector client in the turn');
  return {
    sendToConversation: (conversationId, activity) => connector.sendToConversation(encodeURIComponent(conversationId), activity),
    updateActivity: (conversationId, activityId, activity) =>
      connector.updateActivity(encodeURIComponent(conversationId), encodeURIComponent(activityId), activity),
    createConversation: (parameters) => connector.createConversation(parameters),
    // The SDK's client has no roster call (its Teams extension has one, now deprecated): the same
    // signed-in HTTP client asks for it.
    pagedMembers: async (conversationId, { pageSize, continuationToken }) =>
      (
        await connector.httpClient.get<PagedMembers>(`v3/conversations/${encodeURIComponent(conversationId)}/pagedmembers`, {
          params: { pageSize: String(pageSize), continuationToken },
        })
      ).data,
  };
}
