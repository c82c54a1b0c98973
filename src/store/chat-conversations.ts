import type { ChatConversation } from '../domain/chat-conversation.js';
import type { Session, PublicOf } from './session.js';

export type ChatConversationStore = PublicOf<SqlChatConversationStore>;

type ConversationRow = Omit<ChatConversation, 'reference' | 'updatedAt'> & { reference: string; updatedAt: string };

const SELECT = 'SELECT platform, conversation_id AS "conversationId", kind, reference, updated_at AS "updatedAt" FROM chat_conversations';

const conversationFromRow = (row: ConversationRow): ChatConversation => ({
  ...row,
  reference: JSON.parse(row.reference) as Record<string, unknown>,
  updatedAt: new Date(row.updatedAt),
});

/**
 * Conversations a chat platform lets burnrate write to later. The reference is kept as the
 * platform gave it (opaque JSON here), so the store knows nothing of any chat SDK.
 */
export class SqlChatConversationStore {
  constructor(private readonly db: Session) {}

  /** Inserts or refreshes the conversation (its reference may change, e.g. a new service URL). */
  async save(conversation: ChatConversation): Promise<void> {
    const { platform, conversationId, kind, reference, updatedAt } = conversation;
    await this.db.run(
      `INSERT INTO chat_conversations (platform, conversation_id, kind, reference, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (platform, conversation_id) DO UPDATE SET kind = excluded.kind, reference = excluded.reference, updated_at = excluded.updated_at`,
      [platform, conversationId, kind, JSON.stringify(reference), updatedAt.toISOString()],
    );
  }

  async get(platform: string, conversationId: string): Promise<ChatConversation | null> {
    const row = await this.db.one<ConversationRow>(`${SELECT} WHERE platform = ? AND conversation_id = ?`, [platform, conversationId]);
    return row ? conversationFromRow(row) : null;
  }

  /** Every conversation known on a platform (where the bot was installed or spoken to). */
  async list(platform: string): Promise<ChatConversation[]> {
    const rows = await this.db.rows<ConversationRow>(`${SELECT} WHERE platform = ? ORDER BY ${this.db.dialect.bytes('conversation_id')}`, [
      platform,
    ]);
    return rows.map(conversationFromRow);
  }
}
