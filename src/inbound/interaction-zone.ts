import type { Deps } from '../deps.js';
import { chatPortOn, splitTarget } from '../ports/chat-port.js';
import type { Interaction, MessageReply, Reply } from '../ports/interaction.js';
import { inTimeZone } from '../../templates/message.js';

/**
 * The zone of the team whose channel an interaction came from (a click on its alert, a command
 * typed there): answers read on that team's clock where the platform cannot show each reader's own.
 * A direct message belongs to no team, nor does a channel teams in several zones share: UTC.
 */
export function zoneOfInteraction(deps: Pick<Deps, 'chat' | 'config'>, interaction: Interaction): string | undefined {
  const where =
    interaction.kind === 'action'
      ? interaction.message && splitTarget(interaction.message.target)
      : interaction.channel && { platform: interaction.actor.platform, address: interaction.channel };
  if (!where) return undefined;
  const port = chatPortOn(deps.chat, where.platform);
  if (!port) return undefined;
  // A channel several teams share is on one clock only when they all are; else UTC, labelled.
  const zones = new Set(deps.config.teams.filter((team) => port.addressOf(team) === where.address).map((team) => team.timezone));
  return zones.size === 1 ? [...zones][0] : undefined;
}

/** The interaction with every answer stamped with `timeZone`. */
export function withAnswersIn<I extends Interaction>(interaction: I, timeZone: string | undefined): I {
  if (!timeZone) return interaction;
  const zoned =
    (send: Reply['private']): Reply['private'] =>
    (message) =>
      send(inTimeZone(message, timeZone));
  const original = interaction.reply;
  const reply: Reply = { private: zoned((m) => original.private(m)) };
  if (interaction.kind === 'command') return { ...interaction, reply };
  const clicked = original as MessageReply;
  return {
    ...interaction,
    reply: { ...reply, update: zoned((m) => clicked.update(m)), thread: zoned((m) => clicked.thread(m)) } satisfies MessageReply,
  };
}
