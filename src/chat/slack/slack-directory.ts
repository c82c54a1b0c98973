import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { PeopleDirectory, PeopleGroup } from '../../ports/people-directory.js';

/** Pages of users.list read at most: 50 × 200 people covers a workspace of 10,000. */
const MAX_PAGES = 50;

interface Snapshot {
  names: Map<string, string>;
  emails: Map<string, string>;
  groups: PeopleGroup[];
}

/**
 * Slack's people (users.list, scope users:read; emails with users:read.email) and user groups
 * (usergroups.list with their members, scope usergroups:read). A scope not granted leaves that
 * part empty and is logged once per refresh: roles then come from user ids alone.
 */
export class SlackDirectory implements PeopleDirectory {
  private copy: Snapshot = { names: new Map(), emails: new Map(), groups: [] };
  refreshedAt: Date | null = null;

  constructor(
    private readonly client: WebClient,
    private readonly log: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async refresh(): Promise<void> {
    const next: Snapshot = { names: new Map(), emails: new Map(), groups: [] };
    const [people, groups] = await Promise.allSettled([this.readPeople(next), this.readGroups(next)]);
    for (const [part, result] of [
      ['users.list', people],
      ['usergroups.list', groups],
    ] as const) {
      if (result.status === 'rejected')
        this.log.warn({ err: String(result.reason) }, `Slack ${part} failed: names and groups stay as last read`);
    }
    if (people.status === 'rejected') Object.assign(next, { names: this.copy.names, emails: this.copy.emails });
    if (groups.status === 'rejected') next.groups = this.copy.groups;
    this.copy = next;
    if (people.status === 'fulfilled' || groups.status === 'fulfilled') this.refreshedAt = this.clock();
  }

  nameOf(userId: string): string | undefined {
    return this.copy.names.get(userId);
  }

  userOfEmail(email: string): string | undefined {
    return this.copy.emails.get(email.trim().toLowerCase());
  }

  group(ref: string): PeopleGroup | undefined {
    const handle = ref.startsWith('@') ? ref.slice(1).toLowerCase() : null;
    return this.copy.groups.find((g) => (handle !== null ? g.handle.toLowerCase() === handle : g.id === ref));
  }

  isUserId(ref: string): boolean {
    return /^[UW][A-Z0-9]{2,}$/.test(ref);
  }

  private async readPeople(into: Snapshot): Promise<void> {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.client.users.list({ limit: 200, ...(cursor ? { cursor } : {}) });
      for (const member of result.members ?? []) {
        if (!member.id || member.deleted) continue;
        const name = member.profile?.display_name || member.real_name || member.profile?.real_name || member.name;
        if (name) into.names.set(member.id, name);
        if (member.profile?.email) into.emails.set(member.profile.email.toLowerCase(), member.id);
      }
      cursor = result.response_metadata?.next_cursor || undefined;
      if (!cursor) return;
    }
  }

  private async readGroups(into: Snapshot): Promise<void> {
    const result = await this.client.usergroups.list({ include_users: true });
    into.groups = (result.usergroups ?? []).flatMap((g) =>
      g.id && g.handle && !g.date_delete ? [{ id: g.id, handle: g.handle, name: g.name ?? g.handle, members: g.users ?? [] }] : [],
    );
  }
}
