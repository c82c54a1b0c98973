import type { Message } from '../../../templates/message.js';
import {
  consoleMessageFromRow,
  DEFAULT_CONSOLE_LIMIT,
  type ConsoleChannelActivity,
  type ConsoleMessage,
  type ConsoleMessageDraft,
  type ConsoleMessageStore,
  type ConsoleRow,
  VISIBLE_THREADS,
} from '../console-messages.js';
import type { PgDb } from './pg-db.js';

export class PgConsoleMessageStore implements ConsoleMessageStore {
  constructor(private readonly db: PgDb) {}

  async add(draft: ConsoleMessageDraft, now: Date): Promise<ConsoleMessage> {
    const at = now.toISOString();
    const row = await this.db.one<ConsoleRow>(
      `INSERT INTO console_messages (channel, parent_id, private_to, author, message, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
      [draft.channel, draft.parentId ?? null, draft.privateTo ?? null, draft.author ?? null, JSON.stringify(draft.message), at],
    );
    return consoleMessageFromRow(row!);
  }

  async update(id: number, message: Message, now: Date): Promise<ConsoleMessage | null> {
    const row = await this.db.one<ConsoleRow>('UPDATE console_messages SET message = $1, updated_at = $2 WHERE id = $3 RETURNING *', [
      JSON.stringify(message),
      now.toISOString(),
      id,
    ]);
    return row ? consoleMessageFromRow(row) : null;
  }

  async get(id: number): Promise<ConsoleMessage | null> {
    const row = await this.db.one<ConsoleRow>('SELECT * FROM console_messages WHERE id = $1', [id]);
    return row ? consoleMessageFromRow(row) : null;
  }

  async list(channel: string, viewer: string, limit = DEFAULT_CONSOLE_LIMIT): Promise<ConsoleMessage[]> {
    const rows = await this.db.rows<ConsoleRow>(VISIBLE_THREADS, [channel, viewer, limit]);
    return rows.map(consoleMessageFromRow);
  }

  async activity(viewer: string): Promise<Map<string, ConsoleChannelActivity>> {
    const rows = await this.db.rows<{ channel: string; messages: number; latestId: number }>(
      `SELECT channel, count(*) AS messages, max(id) AS "latestId" FROM console_messages
       WHERE private_to IS NULL OR private_to = $1 GROUP BY channel`,
      [viewer],
    );
    return new Map(rows.map((row) => [row.channel, { messages: row.messages, latestId: row.latestId }]));
  }
}
