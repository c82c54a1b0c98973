import type { ChatConversation } from '../domain/chat-conversation.js';

export interface ChatConversationStore {
  /** Inserts or refreshes the conversation (its reference may change, e.g. a new service URL). */
  save(conversation: ChatConversation): Promise<void>;
  get(platform: string, conversationId: string): Promise<ChatConversation | null>;
  /** Every conversation known on a platform (where the bot was installed or spoken to). */
  list(platform: string): Promise<ChatConversation[]>;
}

/** A conversation as both stores' queries return it. */
export interface ConversationRow {
  platform: string;
  conversationId: string;
  kind: string;
  reference: string;
  updatedAt: string;
}

export function conversationFromRow(row: ConversationRow): ChatConversation {
  return { ...row, reference: JSON.parse(row.reference) as Record<string, unknown>, updatedAt: new Date(row.updatedAt) };
}
