import type { ChatConversation } from '../../domain/chat-conversation.js';
import { conversationFromRow, type ChatConversationStore, type ConversationRow } from '../chat-conversations.js';
import type { PgDb } from './pg-db.js';

const SELECT = 'SELECT platform, conversation_id AS "conversationId", kind, reference, updated_at AS "updatedAt" FROM chat_conversations';

export class PgChatConversationStore implements ChatConversationStore {
  constructor(private readonly db: PgDb) {}

  async save(conversation: ChatConversation): Promise<void> {
    const { platform, conversationId, kind, reference, updatedAt } = conversation;
    await this.db.run(
      `INSERT INTO chat_conversations (platform, conversation_id, kind, reference, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (platform, conversation_id) DO UPDATE SET kind = excluded.kind, reference = excluded.reference, updated_at = excluded.updated_at`,
      [platform, conversationId, kind, JSON.stringify(reference), updatedAt.toISOString()],
    );
  }

  async get(platform: string, conversationId: string): Promise<ChatConversation | null> {
    const row = await this.db.one<ConversationRow>(`${SELECT} WHERE platform = $1 AND conversation_id = $2`, [platform, conversationId]);
    return row ? conversationFromRow(row) : null;
  }

  async list(platform: string): Promise<ChatConversation[]> {
    // Byte order, as SQLite sorts the ids.
    return (await this.db.rows<ConversationRow>(`${SELECT} WHERE platform = $1 ORDER BY conversation_id COLLATE "C"`, [platform])).map(
      conversationFromRow,
    );
  }
}
