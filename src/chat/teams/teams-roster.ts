import type { Logger } from 'pino';
import type { PeopleDirectory, PeopleGroup } from '../../ports/people-directory.js';
import { ENTRA_OBJECT_ID } from '../../domain/entra-object-id.js';
import type { EntraGroups } from './entra-groups.js';

/** A member of a Teams conversation, as the Bot Connector's roster lists one. */
export interface RosterMember {
  /** The Teams user id (29:…). */
  id: string;
  name: string;
  aadObjectId?: string | undefined;
  email?: string | undefined;
  userPrincipalName?: string | undefined;
}

/** Where the roster is read: the conversations the bot is in, and the members of one. */
export interface RosterSource {
  conversations(): Promise<string[]>;
  members(conversation: string): Promise<RosterMember[]>;
}

/** A roster member, with the conversation whose roster listed them (where a 1:1 chat with them can start). */
export interface RosterEntry extends RosterMember {
  conversation: string;
}

/**
 * Teams people from the rosters of the conversations burnrate is installed in (the Bot Connector's
 * paged members, as TeamsInfo reads them): display names, emails, and which ids are people. Groups
 * are Entra groups read through Microsoft Graph where the bot may (see EntraGroups); without that,
 * a group entry holds no role on Teams and members are listed by their Entra object ids instead.
 */
export class TeamsRoster implements PeopleDirectory {
  private people = new Map<string, RosterEntry>();
  refreshedAt: Date | null = null;

  constructor(
    private readonly source: RosterSource,
    private readonly log: Logger,
    private readonly clock: () => Date = () => new Date(),
    private readonly groups?: EntraGroups,
  ) {}

  async refresh(): Promise<void> {
    const next = new Map<string, RosterEntry>();
    let read = 0;
    for (const conversation of await this.source.conversations()) {
      try {
        for (const member of await this.source.members(conversation)) {
          const entry = { ...member, conversation };
          next.set(member.id, entry);
          if (member.aadObjectId) next.set(member.aadObjectId, entry);
        }
        read += 1;
      } catch (error) {
        this.log.warn({ conversation, err: String(error) }, 'Teams roster not readable: names there stay as last read');
        for (const [key, member] of this.people) if (!next.has(key)) next.set(key, member);
      }
    }
    this.people = next;
    const groupsRead = (await this.groups?.refresh()) ?? false;
    if (read > 0 || groupsRead) this.refreshedAt = this.clock();
  }

  /** The roster entry of a Teams user id or an Entra object id, if a roster listed them. */
  entryOf(userId: string): RosterEntry | undefined {
    return this.people.get(userId);
  }

  nameOf(userId: string): string | undefined {
    const name = this.people.get(userId)?.name;
    if (name) return name;
    for (const user of this.groups?.members() ?? []) if (user.id === userId && user.displayName) return user.displayName;
    return undefined;
  }

  /** A roster's email or user principal name first; then those of the members of Entra groups. */
  userOfEmail(email: string): string | undefined {
    const wanted = email.trim().toLowerCase();
    for (const member of this.people.values())
      if ([member.email, member.userPrincipalName].some((e) => e?.toLowerCase() === wanted)) return member.aadObjectId ?? member.id;
    for (const user of this.groups?.members() ?? [])
      if ([user.mail, user.userPrincipalName].some((e) => e?.toLowerCase() === wanted)) return user.id;
    return undefined;
  }

  group(ref: string): PeopleGroup | undefined {
    return this.groups?.group(ref);
  }

  /** A roster member, a Teams user id (29:…) or an Entra object id: Teams can mention each. */
  isUserId(ref: string): boolean {
    return this.people.has(ref) || ref.startsWith('29:') || ENTRA_OBJECT_ID.test(ref);
  }
}
