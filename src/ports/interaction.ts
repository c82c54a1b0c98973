import type { Message } from '../../templates/message.js';

/** Who clicked or typed, on which platform. */
export interface Actor {
  platform: string;
  userId: string;
  name?: string;
}

/** Ways to answer an interaction; each platform adapter implements them with its own API. */
export interface Reply {
  /** Only the actor sees it: Slack's response_url or an ephemeral message. */
  private(message: Message): Promise<void>;
}

export interface MessageReply extends Reply {
  /** Replaces the message the button was on (Slack chat.update, Teams card refresh). */
  update(message: Message): Promise<void>;
  /** Posts in the thread of the message the button was on. */
  thread(message: Message): Promise<void>;
}

/** A slash command or a message to the bot: `/burnrate spend ml-research last-month`. */
export interface CommandInteraction {
  kind: 'command';
  actor: Actor;
  /** Everything after the command name. */
  text: string;
  channel: string | null;
  reply: Reply;
}

/** A button click on a message burnrate posted. */
export interface ActionInteraction {
  kind: 'action';
  actor: Actor;
  /** The action id, e.g. `budget.ack` (Slack action_id, Teams Action.Execute verb). */
  action: string;
  /** The button's value, as burnrate wrote it: untrusted, validated by the action. */
  value: string;
  /** Outbox target and platform reference of the message the button was on. */
  message: { target: string; ref: string } | null;
  reply: MessageReply;
}

/** Every inbound interaction, whatever the platform, has one of these shapes. */
export type Interaction = CommandInteraction | ActionInteraction;
