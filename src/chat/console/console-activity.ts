import type { ConsoleChannelActivity } from '../../store/console-messages.js';
import type { ConsoleChannel } from './console-directory.js';

/**
 * Where the console opens when the address names no channel: the conversation with the most
 * messages the viewer can see, so a first visit lands where things happen. Ties go to the channel
 * listed first (team order); the views drawn per user (Home) and the direct messages never win, and
 * with no message anywhere it is the first team's channel.
 */
export function busiestChannel(channels: readonly ConsoleChannel[], activity: ReadonlyMap<string, ConsoleChannelActivity>): string {
  let busiest = channels[0]!;
  for (const channel of channels) {
    if (channel.id.startsWith('@')) continue;
    if ((activity.get(channel.id)?.messages ?? 0) > (activity.get(busiest.id)?.messages ?? 0)) busiest = channel;
  }
  return busiest.id;
}

/**
 * The newest message id per channel for the viewer (0 where there is none): the browser compares
 * it with the newest it has shown them to light a channel's unread marker.
 */
export function latestIds(
  channels: readonly ConsoleChannel[],
  activity: ReadonlyMap<string, ConsoleChannelActivity>,
): Record<string, number> {
  return Object.fromEntries(channels.map((c) => [c.id, activity.get(c.id)?.latestId ?? 0]));
}
