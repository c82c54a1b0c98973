import type { TeamConfig } from '../config/schema.js';
import { targetOf, type ChatPort } from '../ports/chat-port.js';
import { isEmail } from '../ports/people-directory.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import type { OutboxStore } from '../store/outbox-table.js';
import { inTimeZone, type Message } from '../../templates/message.js';

// One message, one copy per chat platform: every alert goes to a team's channel on each platform
// that has an address for it, under a dedupe key that ends with the platform, so a retried run
// queues no copy twice and the copies of one message never collide.

/** Where one platform's copy goes. */
export interface Channel {
  platform: string;
  /** `platform:address`, as the outbox takes it. */
  target: string;
  /** The team's zone: moments in its messages read on that clock where a platform cannot localise them. */
  timeZone?: string;
}

/** A team's channel, with the port that reaches it (for what the platform can show). */
export interface TeamChannel extends Channel {
  port: ChatPort;
}

/** A part of a thread: a reply in it, or an update of its first message. */
export interface ThreadPart {
  op: 'reply' | 'update';
  message: Message;
  /** Ends the key after the platform (`reply`, `update`) where one message has several parts. */
  suffix?: string;
}

/** The team's channel on every chat platform that has an address for it, in the ports' order. */
export function channelsOf(ports: readonly ChatPort[], team: TeamConfig): TeamChannel[] {
  return ports.flatMap((port) => {
    const address = port.addressOf(team);
    return address ? [{ port, platform: port.platform, target: targetOf(port, address), timeZone: team.timezone }] : [];
  });
}

/** The dedupe key of one platform's copy: the key base names the message, the platform its copy. */
export function fanOutKey(keyBase: string, channel: Channel, suffix?: string): string {
  return `${keyBase}:${channel.platform}${suffix ? `:${suffix}` : ''}`;
}

/** One post on one channel; `threadOf` names the alert groups whose thread it starts. */
export function postOn(channel: Channel, keyBase: string, message: Message, threadOf?: OutboxDraft['threadOf']): OutboxDraft {
  return {
    dedupeKey: fanOutKey(keyBase, channel),
    target: channel.target,
    message: inTimeZone(message, channel.timeZone),
    ...(threadOf !== undefined ? { threadOf } : {}),
  };
}

/** The parts on one channel, in the thread whose first message has the key `root`. */
export function inThreadOn(channel: Channel, root: string, keyBase: string, parts: readonly ThreadPart[]): OutboxDraft[] {
  return parts.map((part) => ({
    dedupeKey: fanOutKey(keyBase, channel, part.suffix),
    target: channel.target,
    message: inTimeZone(part.message, channel.timeZone),
    op: part.op,
    parentKey: root,
  }));
}

/** A message for the team (or for the channels given) on every platform that has an address for it. */
export function fanOut(
  ports: readonly ChatPort[],
  to: TeamConfig | readonly Channel[],
  keyBase: string,
  message: Message,
  threadOf?: OutboxDraft['threadOf'],
): OutboxDraft[] {
  const channels = Array.isArray(to) ? (to as readonly Channel[]) : channelsOf(ports, to as TeamConfig);
  return channels.map((channel) => postOn(channel, keyBase, message, threadOf));
}

/**
 * Parts in the thread of an alert group, on every platform of the team where the group's first
 * message was queued; a platform without that message gets nothing (nothing to reply to).
 */
export async function fanOutInThread(
  deps: { chat: readonly ChatPort[]; store: { outbox: Pick<OutboxStore, 'threadRoot'> } },
  team: TeamConfig,
  group: string,
  keyBase: string,
  parts: readonly ThreadPart[],
): Promise<OutboxDraft[]> {
  const drafts: OutboxDraft[] = [];
  for (const channel of channelsOf(deps.chat, team)) {
    const root = await deps.store.outbox.threadRoot(group, channel.platform);
    if (root) drafts.push(...inThreadOn(channel, root, keyBase, parts));
  }
  return drafts;
}

/**
 * A direct message to a person (a user id, or an email the platform's directory knows) on every
 * platform that can start one; none where no platform can reach them.
 */
export function toPerson(ports: readonly ChatPort[], person: string, keyBase: string, message: Message): OutboxDraft[] {
  return ports.flatMap((port) => {
    const userId = isEmail(person) ? port.people?.userOfEmail(person) : person;
    const address = userId ? (port.addressOfUser?.(userId) ?? null) : null;
    return address ? [postOn({ platform: port.platform, target: targetOf(port, address) }, keyBase, message)] : [];
  });
}
