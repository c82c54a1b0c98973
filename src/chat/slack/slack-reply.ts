import type { RespondArguments, types } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Message } from '../../../templates/message.js';
import { renderBlockKit } from '../../../templates/render/block-kit.js';
import type { ChatPort } from '../../ports/chat-port.js';
import type { MessageReply, Reply } from '../../ports/interaction.js';
import type { ClickedMessage } from './slack-interaction.js';

/** What a Slack reply can use: Bolt's response_url helper and client, and our Slack chat port. */
export interface ReplyTools {
  /** Present when the payload carried a response_url (slash commands, message buttons): Bolt's, or respondAt's. */
  respond?: (message: string | RespondArguments) => Promise<unknown>;
  /** Bolt's WebClient with the bot token, for the rare private answer without a response_url. */
  client: WebClient;
  /** The Slack ChatPort: edits and thread replies go through the same rendering and error mapping as alerts. */
  chat: ChatPort;
}

/**
 * Only the actor sees it. response_url is preferred: it needs no channel membership and works in
 * DMs. Without one, an ephemeral message in the channel; without a channel (App Home), a DM.
 */
export function privateReply(tools: ReplyTools, where: { channel: string | null; userId: string }): Reply {
  return {
    async private(message) {
      const { text, blocks } = blockKit(message);
      if (tools.respond) {
        await tools.respond(ephemeralResponse(message));
      } else if (where.channel) {
        await tools.client.chat.postEphemeral({ channel: where.channel, user: where.userId, text, blocks });
      } else {
        await tools.client.chat.postMessage({ channel: where.userId, text, blocks });
      }
      await picturesByDirectMessage(tools, where.userId, message);
    },
  };
}

/**
 * A private answer takes blocks only (response_url, ephemeral messages), never a file: its
 * pictures (the chart of `spend … by day`) go as files into the person's direct messages with
 * burnrate, which only they see. The answer has gone already, so a picture that cannot follow
 * (an install without the im:write scope) is left out rather than turned into an error.
 */
async function picturesByDirectMessage(tools: ReplyTools, userId: string, message: Message): Promise<void> {
  const pictures = message.blocks.filter((b) => b.type === 'image');
  if (pictures.length === 0) return;
  try {
    const opened = await tools.client.conversations.open({ users: userId });
    if (opened.channel?.id) await tools.chat.post(opened.channel.id, { summary: message.summary, blocks: pictures });
  } catch {
    // Deliberately quiet: see above.
  }
}

/**
 * Replies to a button click. An ephemeral message has no ts chat.update can address, so it is
 * replaced through response_url instead; a click outside any message falls back to private.
 */
export function messageReply(
  tools: ReplyTools,
  where: { channel: string | null; userId: string },
  clicked: ClickedMessage | null,
): MessageReply {
  const base = privateReply(tools, where);
  return {
    private: base.private,
    async update(message) {
      if (clicked && !clicked.ephemeral) return tools.chat.update(clicked.channel, clicked.ts, message);
      if (clicked && tools.respond) {
        await tools.respond({ replace_original: true, ...blockKit(message) });
        return;
      }
      return base.private(message);
    },
    async thread(message) {
      if (clicked && !clicked.ephemeral) {
        // A click on a reply (a review line) answers in the same thread: Slack wants the parent's ts.
        await tools.chat.reply(clicked.channel, clicked.threadTs ?? clicked.ts, message);
        return;
      }
      return base.private(message);
    },
  };
}

/** The body of a private answer POSTed to a response_url: only the actor sees it, the original stays. */
export function ephemeralResponse(message: Message): {
  response_type: 'ephemeral';
  replace_original: false;
  text: string;
  blocks: types.KnownBlock[];
} {
  return { response_type: 'ephemeral', replace_original: false, ...blockKit(message) };
}

function blockKit(message: Message): { text: string; blocks: types.KnownBlock[] } {
  const { text, blocks } = renderBlockKit(message);
  return { text, blocks: blocks as types.KnownBlock[] };
}
