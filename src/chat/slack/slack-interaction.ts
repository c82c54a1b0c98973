import type { BlockAction, SlashCommand } from '@slack/bolt';
import type { CommandRequest } from './answer/answerer.js';
import type { Actor, ActionInteraction, MessageReply } from '../../ports/interaction.js';

/**
 * Slack payloads to burnrate's one Interaction shape. Pure: no I/O, no Bolt objects beyond the
 * payload itself, so the dispatcher never learns it was Slack. Payloads are untrusted input even
 * after the signature check; a payload without the fields we rely on throws, and the caller turns
 * that into a polite private message.
 */

/** Where the clicked button's message lives. Ephemeral messages cannot be edited by chat.update. */
export interface ClickedMessage {
  channel: string;
  ts: string;
  /** The parent's ts when the message is itself a reply in a thread: Slack threads are one level deep. */
  threadTs: string | null;
  ephemeral: boolean;
}

/** A slash command as plain data for an answerer; `now` is the caller's clock, carried as an offset. */
export function commandRequest(command: SlashCommand, now: Date): CommandRequest {
  return {
    actor: actor(command.user_id, command.user_name),
    text: typeof command.text === 'string' ? command.text : '',
    // The raw channel id, comparable with a team's `slack.channel` (ChatPort.addressOf).
    channel: nonEmpty(command.channel_id),
    responseUrl: nonEmpty(command.response_url),
    clockOffsetMs: now.getTime() - Date.now(),
  };
}

export function actionInteraction(body: BlockAction, reply: MessageReply): ActionInteraction {
  const action = body.actions[0];
  const actionId = nonEmpty(action?.action_id);
  if (!action || !actionId) throw new Error('block_actions payload without an action_id');
  const clicked = clickedMessage(body);
  return {
    kind: 'action',
    actor: actor(body.user?.id, body.user?.name ?? body.user?.username),
    action: actionId,
    value: valueOf(action),
    message: clicked ? { target: `slack:${clicked.channel}`, ref: clicked.ts } : null,
    reply,
  };
}

/** Buttons carry `value`; a static select the chosen option's value; other elements none we use. */
function valueOf(action: BlockAction['actions'][number]): string {
  if ('value' in action && typeof action.value === 'string') return action.value;
  if ('selected_option' in action && action.selected_option && typeof action.selected_option.value === 'string')
    return action.selected_option.value;
  return '';
}

/** The message a button was on, from `container` (always sent) or `channel` + `message`. */
export function clickedMessage(body: BlockAction): ClickedMessage | null {
  const container = body.container ?? {};
  const channel = nonEmpty(container.channel_id) ?? nonEmpty(body.channel?.id);
  const ts = nonEmpty(container.message_ts) ?? nonEmpty(body.message?.ts);
  if (!channel || !ts) return null; // e.g. a button in the App Home or a modal
  const threadTs = nonEmpty((body.message as { thread_ts?: unknown } | undefined)?.thread_ts);
  return { channel, ts, threadTs: threadTs && threadTs !== ts ? threadTs : null, ephemeral: container.is_ephemeral === true };
}

function actor(userId: unknown, name: unknown): Actor {
  const id = nonEmpty(userId);
  if (!id) throw new Error('Slack payload without a user id');
  const display = nonEmpty(name);
  return { platform: 'slack', userId: id, ...(display ? { name: display } : {}) };
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
