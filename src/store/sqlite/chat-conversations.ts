import type Database from 'better-sqlite3';
import type { ChatConversation } from '../../domain/chat-conversation.js';
import { conversationFromRow, type ChatConversationStore, type ConversationRow } from '../chat-conversations.js';

/**
 * Conversations a chat platform lets burnrate write to later. The reference is kept as the
 * platform gave it (opaque JSON here), so the store knows nothing of any chat SDK.
 */
export class SqliteChatConversationStore implements ChatConversationStore {
  private readonly saveStatement: Database.Statement<[string, string, string, string, string]>;
  private readonly getStatement: Database.Statement<[string, string], ConversationRow>;
  private readonly listStatement: Database.Statement<[string], ConversationRow>;

  constructor(db: Database.Database) {
    this.saveStatement = db.prepare(
      `INSERT INTO chat_conversations (platform, conversation_id, kind, reference, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (platform, conversation_id) DO UPDATE SET kind = excluded.kind, reference = excluded.reference, updated_at = excluded.updated_at`,
    );
    this.getStatement = db.prepare(`${SELECT} WHERE platform = ? AND conversation_id = ?`);
    this.listStatement = db.prepare(`${SELECT} WHERE platform = ? ORDER BY conversation_id`);
  }

  async list(platform: string): Promise<ChatConversation[]> {
    return this.listStatement.all(platform).map(conversationFromRow);
  }

  async save(conversation: ChatConversation): Promise<void> {
    const { platform, conversationId, kind, reference, updatedAt } = conversation;
    this.saveStatement.run(platform, conversationId, kind, JSON.stringify(reference), updatedAt.toISOString());
  }

  async get(platform: string, conversationId: string): Promise<ChatConversation | null> {
    const row = this.getStatement.get(platform, conversationId);
    return row ? conversationFromRow(row) : null;
  }
}

const SELECT = 'SELECT platform, conversation_id AS conversationId, kind, reference, updated_at AS updatedAt FROM chat_conversations';
