import type { CommandSpec } from './command.js';
import { peopleOn, type PeopleDirectory } from '../src/ports/people-directory.js';

export const whoamiCommand: CommandSpec = {
  verb: 'whoami',
  // Help says it; the menu keeps its 12 places for questions about spend.
  menu: false,
  usage: '/burnrate whoami',
  example: '/burnrate whoami',
  summary: 'your teams and what you may do in them',
  async run(ctx) {
    const { roles } = ctx;
    // Where each role comes from in burnrate.yml: the user's own id, or the groups (or email) naming them.
    const people = peopleOn(ctx.deps, ctx.actor.platform);
    const from = (entries: readonly string[]) =>
      entries.map((e) => (e === roles.userId ? 'your user id' : throughGroup(people, e))).join(', ');
    const lines = roles.teams.map((t) => [t.id, t.roles.join(', '), from(t.from)]);
    const intro = roles.admin
      ? `You are an **admin** (through ${from(roles.adminFrom ?? [])}): you see every team and may act for any of them.`
      : lines.length
        ? 'Your teams:'
        : 'You are in no team yet: ask an admin to add your user id, or a user group you are in, to a team in burnrate.yml.';
    return {
      summary: `You are ${ctx.actor.name ?? ctx.actor.userId}${roles.admin ? ' (admin)' : ''}`,
      blocks: [
        { type: 'text', text: intro },
        ...(lines.length
          ? [{ type: 'table' as const, columns: [{ label: 'Team' }, { label: 'Roles' }, { label: 'Through' }], rows: lines }]
          : []),
        { type: 'context', text: `user ${ctx.actor.userId} on ${ctx.actor.platform}` },
      ],
    };
  },
};

/**
 * A group named by its id (an Entra object id) reads as the group it is: `group ML leads (0f3e…)`.
 * A handle (`@ml-leads`), an email or an unknown entry is shown as burnrate.yml has it.
 */
function throughGroup(people: PeopleDirectory | undefined, entry: string): string {
  const group = people?.group(entry);
  return group && !entry.startsWith('@') ? `group ${group.name} (${entry})` : entry;
}
