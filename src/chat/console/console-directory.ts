import type { Config } from '../../config/schema.js';
import { rolesOf } from '../../domain/roles.js';
import { UNOWNED_ID, UNOWNED_NAME } from '../../domain/unowned.js';
import { DM_CHANNEL, HOME_CHANNEL } from './console-chat.js';

/** Someone the console user can act as: one of the users burnrate.yml names. */
export interface ConsoleUser {
  id: string;
  /** Their name where the console knows it, else the id. */
  name: string;
  /** Their roles, as the picker shows them: "owner of llm-training", "admin". */
  roles: string;
}

export interface ConsoleChannel {
  id: string;
  name: string;
  /** Who belongs, for the channel's header line. */
  topic: string;
}

/**
 * With no user in burnrate.yml there is nobody to act as; this one has no roles, so help and
 * whoami work and everything else is refused, which is what the configuration says.
 */
export const NOBODY = 'console-user';

/** A person's name where the console knows it. */
export type NameOf = (userId: string) => string | undefined;

/**
 * Every user named in the configuration, team by team (owners, approvers), then the admins; groups
 * and emails are left out (one acts as a person).
 */
export function consoleUsers(config: Config, nameOf: NameOf = () => undefined): ConsoleUser[] {
  const ids = [...new Set([...config.teams.flatMap((t) => [...t.owners, ...t.approvers]), ...config.admins])].filter(
    (id) => !id.includes('@'),
  );
  if (ids.length === 0) return [{ id: NOBODY, name: NOBODY, roles: 'no role' }];
  return ids.map((id) => {
    const roles = rolesOf(config, id);
    const parts = [...(roles.admin ? ['admin'] : []), ...roles.teams.map((t) => `${t.roles.join(' + ')} of ${t.id}`)];
    return { id, name: nameOf(id) ?? id, roles: parts.join(', ') };
  });
}

/** Who the console acts as until the user picks someone: an owner of the first team. */
export function defaultUser(config: Config): string {
  const first = config.teams[0];
  return first?.owners[0] ?? first?.approvers[0] ?? consoleUsers(config)[0]?.id ?? NOBODY;
}

/** One channel per team, one for GPUs of no team, then the direct-message view. */
export function consoleChannels(config: Config, nameOf: NameOf = () => undefined): ConsoleChannel[] {
  const names = (ids: readonly string[]) => ids.map((id) => nameOf(id) ?? id).join(', ');
  return [
    ...config.teams.map((t) => ({
      id: t.id,
      name: t.name ?? t.id,
      topic:
        [t.owners.length ? `owners ${names(t.owners)}` : '', t.approvers.length ? `approvers ${names(t.approvers)}` : '']
          .filter(Boolean)
          .join(' · ') || 'no owners configured',
    })),
    { id: UNOWNED_ID, name: UNOWNED_NAME, topic: 'idle GPUs of no team: admins act on them, and anyone can claim one for their team' },
    {
      id: HOME_CHANNEL,
      name: 'Home',
      topic: "your dashboard, as Slack's App Home shows it: your teams' budgets, open alerts, waste and savings",
    },
    { id: DM_CHANNEL, name: 'burnrate', topic: 'your direct messages with burnrate: only you see them' },
  ];
}
