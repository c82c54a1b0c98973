import type Database from 'better-sqlite3';
import type { Message } from '../../../templates/message.js';
import {
  DEFAULT_CONSOLE_LIMIT,
  VISIBLE_THREADS,
  consoleMessageFromRow,
  type ConsoleMessage,
  type ConsoleMessageDraft,
  type ConsoleChannelActivity,
  type ConsoleMessageStore,
  type ConsoleRow,
} from '../console-messages.js';

/**
 * The local web console's messages. The console is a chat platform like the others, and its
 * messages live in the database so a restart or a second browser tab shows the same stream.
 */
export class SqliteConsoleMessageStore implements ConsoleMessageStore {
  // Prepared once: the console reads a channel on every live update of every open browser.
  private readonly insertStatement: Database.Statement<[string, number | null, string | null, string | null, string, string, string]>;
  private readonly updateStatement: Database.Statement<[string, string, number]>;
  private readonly getStatement: Database.Statement<[number], ConsoleRow>;
  private readonly listStatement: Database.Statement<[{ 1: string; 2: string; 3: number }], ConsoleRow>;
  private readonly activityStatement: Database.Statement<[string], { channel: string; messages: number; latest_id: number }>;

  constructor(db: Database.Database) {
    this.insertStatement = db.prepare(
      'INSERT INTO console_messages (channel, parent_id, private_to, author, message, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.updateStatement = db.prepare('UPDATE console_messages SET message = ?, updated_at = ? WHERE id = ?');
    this.getStatement = db.prepare('SELECT * FROM console_messages WHERE id = ?');
    this.listStatement = db.prepare(VISIBLE_THREADS);
    this.activityStatement = db.prepare(
      `SELECT channel, COUNT(*) AS messages, MAX(id) AS latest_id FROM console_messages
       WHERE private_to IS NULL OR private_to = ? GROUP BY channel`,
    );
  }

  async add(draft: ConsoleMessageDraft, now: Date): Promise<ConsoleMessage> {
    const at = now.toISOString();
    const { lastInsertRowid } = this.insertStatement.run(
      draft.channel,
      draft.parentId ?? null,
      draft.privateTo ?? null,
      draft.author ?? null,
      JSON.stringify(draft.message),
      at,
      at,
    );
    return (await this.get(Number(lastInsertRowid)))!;
  }

  async update(id: number, message: Message, now: Date): Promise<ConsoleMessage | null> {
    const { changes } = this.updateStatement.run(JSON.stringify(message), now.toISOString(), id);
    return changes === 0 ? null : this.get(id);
  }

  async get(id: number): Promise<ConsoleMessage | null> {
    const row = this.getStatement.get(id);
    return row ? consoleMessageFromRow(row) : null;
  }

  async list(channel: string, viewer: string, limit = DEFAULT_CONSOLE_LIMIT): Promise<ConsoleMessage[]> {
    return this.listStatement.all({ 1: channel, 2: viewer, 3: limit }).map(consoleMessageFromRow);
  }

  async activity(viewer: string): Promise<Map<string, ConsoleChannelActivity>> {
    return new Map(this.activityStatement.all(viewer).map((row) => [row.channel, { messages: row.messages, latestId: row.latest_id }]));
  }
}
