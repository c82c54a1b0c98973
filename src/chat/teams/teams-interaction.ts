import type { Activity } from '@microsoft/agents-activity';
import type { Actor, ActionInteraction, CommandInteraction, MessageReply, Reply } from '../../ports/interaction.js';
import { conversationKey, TEAMS_PLATFORM } from './teams-conversations.js';

/**
 * Teams activities to burnrate's one Interaction shape. Pure: the dispatcher never learns it was
 * Teams. Activities are untrusted input even after authentication; one without the fields we rely
 * on throws, and the caller turns that into a polite answer.
 */

/** The `name` of the invoke an Adaptive Card's Action.Execute sends. */
export const CARD_ACTION_INVOKE = 'adaptiveCard/action';

export function commandInteraction(activity: Activity, reply: Reply): CommandInteraction {
  return {
    kind: 'command',
    actor: actorOf(activity),
    text: commandText(activity),
    // Comparable with a team's `msteams.channel` (ChatPort.addressOf).
    channel: activity.conversation?.id ? conversationKey(activity.conversation.id) : null,
    reply,
  };
}

export function actionInteraction(activity: Activity, reply: MessageReply): ActionInteraction {
  const value = activity.value as { action?: { type?: unknown; verb?: unknown; data?: unknown } } | undefined;
  const verb = nonEmpty(value?.action?.verb);
  if (!verb) throw new Error('adaptiveCard/action invoke without a verb');
  const data = value?.action?.data;
  const buttonValue =
    typeof data === 'object' && data !== null && typeof (data as { value?: unknown }).value === 'string'
      ? (data as { value: string }).value
      : '';
  const conversation = nonEmpty(activity.conversation?.id);
  const replyTo = nonEmpty(activity.replyToId);
  return {
    kind: 'action',
    actor: actorOf(activity),
    action: verb,
    value: buttonValue,
    message: conversation && replyTo ? { target: `${TEAMS_PLATFORM}:${conversationKey(conversation)}`, ref: replyTo } : null,
    reply,
  };
}

/**
 * What the user typed, without the bot's @mention: `<at>burnrate</at> spend ml-research` is
 * `spend ml-research`. In a personal chat there is no mention; a leading `/burnrate` or
 * `burnrate`, typed out of Slack habit, is dropped too.
 */
export function commandText(activity: Pick<Activity, 'text' | 'entities' | 'recipient'>): string {
  let text = typeof activity.text === 'string' ? activity.text : '';
  for (const entity of activity.entities ?? []) {
    const mentioned = (entity as { mentioned?: { id?: string } }).mentioned;
    const shown = (entity as { text?: unknown }).text;
    if (entity.type === 'mention' && mentioned?.id === activity.recipient?.id && typeof shown === 'string')
      text = text.split(shown).join(' ');
  }
  // Teams writes the mention as <at>name</at>; any left (another app's name) is not a command word.
  text = text.replace(/<at>[^<]*<\/at>/gi, ' ').replace(/&nbsp;/g, ' ');
  return text
    .trim()
    .replace(/^\/?burnrate\b/i, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The person: their Microsoft Entra object id when Teams sends it (stable across apps and what an
 * admin finds in the directory), else the Teams user id. burnrate.yml lists the same ids.
 */
export function actorOf(activity: Pick<Activity, 'from'>): Actor {
  const id = nonEmpty(activity.from?.aadObjectId) ?? nonEmpty(activity.from?.id);
  if (!id) throw new Error('Teams activity without a sender');
  const name = nonEmpty(activity.from?.name);
  return { platform: TEAMS_PLATFORM, userId: id, ...(name ? { name } : {}) };
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
