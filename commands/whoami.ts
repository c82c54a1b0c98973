import type { CommandSpec } from './command.js';

export const whoamiCommand: CommandSpec = {
  verb: 'whoami',
  usage: '/burnrate whoami',
  example: '/burnrate whoami',
  summary: 'your teams and what you may do in them',
  async run(ctx) {
    const { roles } = ctx;
    const lines = roles.teams.map((t) => [t.id, t.roles.join(', ')]);
    const intro = roles.admin
      ? 'You are an **admin**: you see every team and may act for any of them.'
      : lines.length
        ? 'Your teams:'
        : 'You are in no team yet: ask an admin to add your user id to a team in burnrate.yml.';
    return {
      summary: `You are ${ctx.actor.name ?? ctx.actor.userId}${roles.admin ? ' (admin)' : ''}`,
      blocks: [
        { type: 'text', text: intro },
        ...(lines.length ? [{ type: 'table' as const, columns: [{ label: 'Team' }, { label: 'Roles' }], rows: lines }] : []),
        { type: 'context', text: `user ${ctx.actor.userId} on ${ctx.actor.platform}` },
      ],
    };
  },
};
