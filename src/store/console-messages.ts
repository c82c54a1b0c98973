import type { Message } from '../../templates/message.js';
import type { Session, PublicOf } from './session.js';

/** A message of the local web console: posted by burnrate, or a command a user typed. */
export interface ConsoleMessage {
  id: number;
  /** A team id (its console channel) or `@dm`, each user's direct-message view. */
  channel: string;
  /** The thread this message replies in; threads are one level deep, as in Slack. */
  parentId: number | null;
  /** Only this user sees the message (answers to them); null: everyone in the channel. */
  privateTo: string | null;
  /** The user who typed it (an echoed command); null when burnrate wrote it. */
  author: string | null;
  message: Message;
  createdAt: string;
  updatedAt: string;
}

export interface ConsoleMessageDraft {
  channel: string;
  parentId?: number | null;
  privateTo?: string | null;
  author?: string | null;
  message: Message;
}

/** How much a channel holds for one viewer: what picks the busiest channel and lights unread markers. */
export interface ConsoleChannelActivity {
  /** Messages the viewer can see, thread replies included. */
  messages: number;
  /** The newest of them: a browser that has seen this id has seen the channel. */
  latestId: number;
}

export type ConsoleMessageStore = PublicOf<SqlConsoleMessageStore>;

/** A console_messages row under its record's names, the message still JSON. */
const COLUMNS = `id, channel, parent_id AS "parentId", private_to AS "privateTo", author, message, created_at AS "createdAt",
  updated_at AS "updatedAt"`;
type ConsoleRow = Omit<ConsoleMessage, 'message'> & { message: string };
const fromRow = (row: ConsoleRow): ConsoleMessage => ({ ...row, message: JSON.parse(row.message) as Message });

/** How many top-level messages a channel shows by default: a working day's worth, not a history. */
const DEFAULT_CONSOLE_LIMIT = 200;

/**
 * What a viewer sees of a channel: its latest top-level messages visible to them and the visible
 * replies in their threads, oldest first. Parameters: channel, viewer, limit, viewer.
 */
const VISIBLE_THREADS = `WITH roots AS (
    SELECT id FROM console_messages
    WHERE channel = ? AND parent_id IS NULL AND (private_to IS NULL OR private_to = ?)
    ORDER BY id DESC LIMIT ?
  )
  SELECT ${COLUMNS} FROM console_messages
  WHERE (id IN (SELECT id FROM roots) OR parent_id IN (SELECT id FROM roots)) AND (private_to IS NULL OR private_to = ?)
  ORDER BY id`;

export class SqlConsoleMessageStore {
  constructor(private readonly db: Session) {}

  async add(draft: ConsoleMessageDraft, now: Date): Promise<ConsoleMessage> {
    const at = now.toISOString();
    const row = await this.db.one<ConsoleRow>(
      `INSERT INTO console_messages (channel, parent_id, private_to, author, message, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      [draft.channel, draft.parentId ?? null, draft.privateTo ?? null, draft.author ?? null, JSON.stringify(draft.message), at, at],
    );
    return fromRow(row!);
  }

  /** Replaces a message's content; null when there is no such message. */
  async update(id: number, message: Message, now: Date): Promise<ConsoleMessage | null> {
    const row = await this.db.one<ConsoleRow>(`UPDATE console_messages SET message = ?, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`, [
      JSON.stringify(message),
      now.toISOString(),
      id,
    ]);
    return row ? fromRow(row) : null;
  }

  async get(id: number): Promise<ConsoleMessage | null> {
    const row = await this.db.one<ConsoleRow>(`SELECT ${COLUMNS} FROM console_messages WHERE id = ?`, [id]);
    return row ? fromRow(row) : null;
  }

  /**
   * What `viewer` sees in a channel: the latest `limit` top-level messages visible to them and
   * the visible replies in their threads, oldest first.
   */
  async list(channel: string, viewer: string, limit = DEFAULT_CONSOLE_LIMIT): Promise<ConsoleMessage[]> {
    const rows = await this.db.rows<ConsoleRow>(VISIBLE_THREADS, [channel, viewer, limit, viewer]);
    return rows.map(fromRow);
  }

  /** Per channel with any message `viewer` can see: how many, and the newest id. */
  async activity(viewer: string): Promise<Map<string, ConsoleChannelActivity>> {
    const rows = await this.db.rows<{ channel: string; messages: number; latestId: number }>(
      `SELECT channel, count(*) AS messages, max(id) AS "latestId" FROM console_messages
       WHERE private_to IS NULL OR private_to = ? GROUP BY channel`,
      [viewer],
    );
    return new Map(rows.map((row) => [row.channel, { messages: row.messages, latestId: row.latestId }]));
  }
}
