import { randomUUID } from 'node:crypto';

/** The bot as Teams addresses it, and the tenant of the test organisation. */
export const BOT = { id: '28:burnrate-test-bot', name: 'burnrate' };
export const TENANT = '72f988bf-0000-4000-8000-000000000001';

export type ConversationKind = 'channel' | 'groupChat' | 'personal';

/** Conversation ids shaped like Teams' own. */
export const CONVERSATIONS: Record<ConversationKind, string> = {
  channel: '19:llm-training-alerts@thread.tacv2',
  groupChat: '19:meeting-group-chat@thread.v2',
  personal: 'a:1personal-chat-with-burnrate',
};

export interface Person {
  /** Microsoft Entra object id: what burnrate.yml lists. */
  aadObjectId: string;
  name: string;
}

function base(serviceUrl: string, kind: ConversationKind, from: Person, conversationId: string) {
  return {
    id: randomUUID(),
    timestamp: new Date().toISOString(),
    channelId: 'msteams',
    serviceUrl,
    from: { id: `29:${from.aadObjectId}`, name: from.name, aadObjectId: from.aadObjectId },
    recipient: { ...BOT },
    conversation: { id: conversationId, conversationType: kind, tenantId: TENANT, ...(kind === 'personal' ? {} : { isGroup: true }) },
    channelData: {
      tenant: { id: TENANT },
      ...(kind === 'channel' ? { team: { id: '19:general@thread.tacv2' }, channel: { id: CONVERSATIONS.channel } } : {}),
    },
  };
}

/**
 * A message to the bot as Teams sends it: in a channel or group chat the bot is @mentioned (the
 * mention is in the text and in `entities`), and a channel message lives in its own thread.
 */
export function messageActivity(serviceUrl: string, kind: ConversationKind, from: Person, text: string) {
  const activity = base(serviceUrl, kind, from, CONVERSATIONS[kind]);
  const mention = `<at>${BOT.name}</at>`;
  const mentioned = kind !== 'personal';
  return {
    ...activity,
    type: 'message',
    ...(kind === 'channel' ? { conversation: { ...activity.conversation, id: `${CONVERSATIONS.channel};messageid=${activity.id}` } } : {}),
    text: mentioned ? `${mention} ${text}` : text,
    textFormat: 'plain',
    entities: mentioned ? [{ type: 'mention', text: mention, mentioned: { ...BOT } }] : [],
  };
}

/**
 * A click on an Action.Execute button of the card `replyToId` in a channel: the card is the root
 * of its thread, or a reply in the chain under `root`.
 */
export function cardActionActivity(
  serviceUrl: string,
  from: Person,
  replyToId: string,
  verb: string,
  value: string,
  root: string = replyToId,
) {
  const activity = base(serviceUrl, 'channel', from, `${CONVERSATIONS.channel};messageid=${root}`);
  return {
    ...activity,
    type: 'invoke',
    name: 'adaptiveCard/action',
    replyToId,
    value: { action: { type: 'Action.Execute', verb, data: { value } }, trigger: 'manual' },
  };
}

/** The app added to the team: Teams says so in the General channel with the bot among the new members. */
export function installActivity(serviceUrl: string, from: Person, conversationId: string = CONVERSATIONS.channel) {
  return {
    ...base(serviceUrl, 'channel', from, conversationId),
    type: 'conversationUpdate',
    membersAdded: [{ id: BOT.id }],
  };
}
