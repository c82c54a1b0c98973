import type { ConsoleMessage } from '../../store/console-messages.js';
import type { ActionInteraction, Actor, CommandInteraction, MessageReply, Reply } from '../../ports/interaction.js';
import { DM_CHANNEL, HOME_CHANNEL, type ConsoleChat } from './console-chat.js';

/**
 * Console requests to burnrate's one Interaction shape, exactly as the Slack adapter builds them,
 * so the dispatcher, the commands and the actions never learn the click came from a browser.
 */

export interface ConsoleCommandRequest {
  /** The configured user the console acts as. */
  as: string;
  /** A team id, or the direct-message view. */
  channel: string;
  text: string;
}

export interface ConsoleActionRequest {
  as: string;
  action: string;
  value: string;
}

export function consoleActor(userId: string): Actor {
  return { platform: 'console', userId };
}

/**
 * Private answers go where the user acted, visible to them only, like Slack's ephemeral
 * messages: a command typed in #llm-training is answered there, one typed to burnrate in the
 * direct-message view is answered there.
 */
function privateReply(chat: ConsoleChat, channel: string, userId: string): Reply {
  return {
    async private(message) {
      await chat.whisper(channel, userId, message);
    },
  };
}

export function commandInteraction(chat: ConsoleChat, request: ConsoleCommandRequest): CommandInteraction {
  return {
    kind: 'command',
    actor: consoleActor(request.as),
    text: request.text,
    // Like Slack: the channel's address on this platform, or none for a direct message.
    // Home is a view, not a conversation: what is typed there is answered in the direct messages.
    channel: request.channel === DM_CHANNEL || request.channel === HOME_CHANNEL ? null : request.channel,
    reply: privateReply(chat, request.channel === HOME_CHANNEL ? DM_CHANNEL : request.channel, request.as),
  };
}

/** A click on `clicked`, a console message the user can see (the caller checks that). */
export function actionInteraction(chat: ConsoleChat, request: ConsoleActionRequest, clicked: ConsoleMessage): ActionInteraction {
  const base = privateReply(chat, clicked.channel, request.as);
  const ref = String(clicked.id);
  const reply: MessageReply = {
    private: base.private,
    update: (message) => chat.update(clicked.channel, ref, message),
    async thread(message) {
      // A private message has no public thread: its follow-ups stay private too.
      if (clicked.privateTo) return base.private(message);
      await chat.reply(clicked.channel, ref, message);
    },
  };
  return {
    kind: 'action',
    actor: consoleActor(request.as),
    action: request.action,
    value: request.value,
    message: { target: `${chat.platform}:${clicked.channel}`, ref },
    reply,
  };
}
