import type { GroupMembers, Membership } from '../domain/roles.js';
import { personIn, type Mention } from '../../templates/message.js';

/**
 * Who the people and groups named in burnrate.yml are on one chat platform: their names (shown
 * instead of ids) and the members of each group (so a group can hold a role). Read from the
 * platform at start and refreshed daily; lookups answer from that copy and never wait.
 */
export interface PeopleDirectory {
  /** Reads the platform's people and groups again; keeps the last copy when the platform fails. Absent: nothing to read. */
  refresh?(): Promise<void>;
  /** When the copy was last read; null before the first read succeeded. */
  readonly refreshedAt: Date | null;
  /** The display name of a user id; undefined when the platform has not said. */
  nameOf(userId: string): string | undefined;
  /** The user id of an email address (for `burnrate:owner` tags holding an email). */
  userOfEmail(email: string): string | undefined;
  /** A group by handle (`@ml-leads`) or id; undefined when the platform has no such group. */
  group(ref: string): PeopleGroup | undefined;
  /** Whether a config entry has the shape of a person's id on this platform (it may be mentioned). */
  isUserId(ref: string): boolean;
}

export interface PeopleGroup {
  id: string;
  handle: string;
  name: string;
  members: readonly string[];
}

/** An entry naming a person by email address (a group handle starts with @ instead). */
export function isEmail(ref: string): boolean {
  return ref.includes('@') && !ref.startsWith('@');
}

/**
 * The mention of a burnrate.yml entry (a user id, an email, a group handle or id) on one platform:
 * pingable when that platform knows it, else the entry itself as a name.
 */
export function mentionOf(directory: PeopleDirectory | undefined, ref: string): Mention {
  const group = directory?.group(ref);
  if (group) return { id: group.id, name: `@${group.handle}`, group: true };
  const id = isEmail(ref) ? directory?.userOfEmail(ref) : ref;
  if (!id || !directory?.isUserId(id)) return { id: null, name: ref, group: ref.startsWith('@') };
  return { id, name: directory.nameOf(id) ?? id, group: false };
}

/** The chat ports (and their people) a message names people through. */
export interface PeopleSources {
  chat: readonly { platform: string; people?: PeopleDirectory | undefined }[];
}

/** The people directory of one platform's chat port (the one a click came from, say). */
export function peopleOn(deps: PeopleSources, platform: string): PeopleDirectory | undefined {
  return deps.chat.find((port) => port.platform === platform)?.people;
}

/**
 * A person (a user id, an email, a group handle or id, as burnrate.yml and the records have them)
 * as a message names them: pingable on the platform whose directory knows them (the `platform`
 * given, when known: where they clicked), and marked with it, so a copy for another platform names
 * them without a ping. A name the directory knows is preferred over the bare id. An id no
 * directory takes is pinged on the platform given (Slack draws a mention as the name) and named as
 * it is elsewhere.
 */
export function personOf(deps: PeopleSources, userId: string, platform?: string): Mention {
  const mentions = deps.chat.flatMap((port) =>
    port.people && (platform === undefined || port.platform === platform)
      ? [{ ...mentionOf(port.people, userId), platform: port.platform }]
      : [],
  );
  const known = mentions.filter((mention) => mention.id !== null);
  const named = known.find((mention) => mention.name !== userId) ?? known[0];
  if (named) return named;
  return platform === undefined || userId.startsWith('@') || isEmail(userId)
    ? { id: null, name: userId, group: userId.startsWith('@') }
    : { id: userId, name: userId, group: false, platform };
}

/** A person by user id inside message text ("Kept running by …"): see personOf. */
export function personText(deps: PeopleSources, userId: string, platform?: string): string {
  return personIn(personOf(deps, userId, platform));
}

/**
 * Group members as the first directory that knows the group says (a role given to a group holds on
 * every platform); an email address is the one person it belongs to there. The directories are the
 * chat ports' and, in an answer worker (which has no chat port), those the main thread passed on.
 */
export function groupsOf(deps: {
  chat: readonly { people?: PeopleDirectory | undefined }[];
  people?: readonly PeopleDirectory[];
}): GroupMembers {
  const directories = [...(deps.people ?? []), ...deps.chat.flatMap((port) => (port.people ? [port.people] : []))];
  return (ref) => {
    for (const people of directories) {
      const group = people.group(ref);
      if (group) return group.members;
      const person = isEmail(ref) ? people.userOfEmail(ref) : undefined;
      if (person) return [person];
    }
    return undefined;
  };
}

/**
 * The members of each burnrate.yml role entry that names a group or an email, as the directories
 * say now: what an answer worker needs to hold the same roles as the main thread.
 */
export function roleGroups(deps: Parameters<typeof groupsOf>[0] & { config: Membership }): Record<string, readonly string[]> {
  const groups = groupsOf(deps);
  // Every entry: a group may be named by a handle, a Slack id (S…) or an Entra object id, which looks like a person's.
  const refs = [...deps.config.admins, ...deps.config.teams.flatMap((t) => [...t.owners, ...t.approvers])];
  const out: Record<string, readonly string[]> = {};
  for (const ref of new Set(refs)) {
    const members = groups(ref);
    if (members) out[ref] = members;
  }
  return out;
}
