import type { GroupMembers } from '../domain/roles.js';
import type { Mention } from '../../templates/message.js';

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

/**
 * The mention of a burnrate.yml entry (a user id, an email, a group handle or id) on one platform:
 * pingable when that platform knows it, else the entry itself as a name.
 */
export function mentionOf(directory: PeopleDirectory | undefined, ref: string): Mention {
  const group = directory?.group(ref);
  if (group) return { id: group.id, name: `@${group.handle}`, group: true };
  const id = ref.includes('@') && !ref.startsWith('@') ? directory?.userOfEmail(ref) : ref;
  if (!id || !directory?.isUserId(id)) return { id: null, name: ref, group: ref.startsWith('@') };
  return { id, name: directory.nameOf(id) ?? id, group: false };
}

/**
 * Group members as the first chat platform that knows the group says (a role given to a group
 * holds on every platform); an email address is the one person it belongs to there.
 */
export function groupsOf(ports: readonly { people?: PeopleDirectory | undefined }[]): GroupMembers {
  return (ref) => {
    for (const port of ports) {
      const group = port.people?.group(ref);
      if (group) return group.members;
      const person = ref.includes('@') && !ref.startsWith('@') ? port.people?.userOfEmail(ref) : undefined;
      if (person) return [person];
    }
    return undefined;
  };
}
