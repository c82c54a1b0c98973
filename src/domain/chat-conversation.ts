/** A conversation burnrate may write to later: a channel, a group chat or a personal chat. */
export interface ChatConversation {
  /** The outbox platform prefix, e.g. `msteams`. */
  platform: string;
  /** The platform's conversation id, as a team's config names it (a Teams channel or chat id). */
  conversationId: string;
  /** `channel`, `groupChat` or `personal`: threads exist in channels only. */
  kind: string;
  /** What the platform needs to reach the conversation again (the Bot Framework conversation reference). */
  reference: Record<string, unknown>;
  updatedAt: Date;
}
