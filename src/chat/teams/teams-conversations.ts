import type { Activity, ConversationReference } from '@microsoft/agents-activity';
import type { ChatConversationStore } from '../../store/chat-conversations.js';
import { TEAMS_PLATFORM } from './teams-platform-id.js';

export { TEAMS_PLATFORM };

/**
 * The conversation a team's config names. A channel message arrives in `<channel id>;messageid=<root>`
 * (its thread); the channel itself is the part before `;messageid=`.
 */
export function conversationKey(conversationId: string): string {
  const at = conversationId.indexOf(';messageid=');
  return at === -1 ? conversationId : conversationId.slice(0, at);
}

/**
 * The root message of the reply chain a channel activity belongs to, or null outside a chain.
 * A button on a card inside a chain (a review's cost line) arrives with the chain's root here,
 * and its own card as `replyToId`: what it posts belongs in that chain, not in a new one.
 */
export function threadRoot(conversationId: string): string | null {
  const at = conversationId.indexOf(';messageid=');
  return at === -1 ? null : conversationId.slice(at + ';messageid='.length) || null;
}

/** The conversation id of the thread under a channel message. */
export function threadId(channelId: string, rootActivityId: string): string {
  return `${channelId};messageid=${rootActivityId}`;
}

/**
 * Remembers where this activity came from, so alerts can reach the conversation later: on
 * install (conversationUpdate, installationUpdate) and on every message, since a channel where
 * the app was installed before burnrate kept references only appears on its first message.
 * Stored without the activity and the person, so a later post is a new message, not a reply.
 */
export async function rememberConversation(store: ChatConversationStore, activity: Activity, now: Date): Promise<void> {
  const id = activity.conversation?.id;
  if (!id || !activity.serviceUrl) return;
  // Kept in the Bot Framework's wire names (the bot is `bot`, as botbuilder stored it too), so
  // references stored before and after the Agents SDK read the same.
  const { activityId: _activity, user: _user, agent: bot, ...reference } = activity.getConversationReference();
  const key = conversationKey(id);
  const kind = activity.conversation?.conversationType ?? 'personal';
  await store.save({
    platform: TEAMS_PLATFORM,
    conversationId: key,
    kind,
    reference: { ...reference, bot, conversation: { ...activity.conversation, id: key } } as unknown as Record<string, unknown>,
    updatedAt: now,
  });
}

/** A stored reference, ready for continueConversation: the wire's `bot` is the SDK's `agent`. */
export function asReference(stored: Record<string, unknown>): ConversationReference {
  const { bot, ...reference } = stored as Partial<ConversationReference> & { bot?: ConversationReference['agent'] };
  return { ...reference, agent: reference.agent ?? bot, channelId: reference.channelId ?? TEAMS_PLATFORM } as ConversationReference;
}
