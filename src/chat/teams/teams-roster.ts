import type { Logger } from 'pino';
import type { PeopleDirectory, PeopleGroup } from '../../ports/people-directory.js';

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

const ENTRA_OBJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Teams people from the rosters of the conversations burnrate is installed in (the Bot Connector's
 * paged members, as TeamsInfo reads them): display names, emails, and which ids are people. Entra
 * groups are not readable through the bot (that needs Microsoft Graph), so a group entry holds no
 * role on Teams; members are listed by their Entra object ids instead.
 */
export class TeamsRoster implements PeopleDirectory {
  private people = new Map<string, RosterMember>();
  refreshedAt: Date | null = null;

  constructor(
    private readonly source: RosterSource,
    private readonly log: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async refresh(): Promise<void> {
    const next = new Map<string, RosterMember>();
    let read = 0;
    for (const conversation of await this.source.conversations()) {
      try {
        for (const member of await this.source.members(conversation)) {
          next.set(member.id, member);
          if (member.aadObjectId) next.set(member.aadObjectId, member);
        }
        read += 1;
      } catch (error) {
        this.log.warn({ conversation, err: String(error) }, 'Teams roster not readable: names there stay as last read');
        for (const [key, member] of this.people) if (!next.has(key)) next.set(key, member);
      }
    }
    this.people = next;
    if (read > 0) this.refreshedAt = this.clock();
  }

  nameOf(userId: string): string | undefined {
    return this.people.get(userId)?.name;
  }

  userOfEmail(email: string): string | undefined {
    const wanted = email.trim().toLowerCase();
    for (const member of this.people.values())
      if ([member.email, member.userPrincipalName].some((e) => e?.toLowerCase() === wanted)) return member.aadObjectId ?? member.id;
    return undefined;
  }

  group(): PeopleGroup | undefined {
    return undefined;
  }

  /** A roster member, a Teams user id (29:…) or an Entra object id: Teams can mention each. */
  isUserId(ref: string): boolean {
    return this.people.has(ref) || ref.startsWith('29:') || ENTRA_OBJECT_ID.test(ref);
  }
}
