import type { Logger } from 'pino';
import { ENTRA_OBJECT_ID } from '../../domain/entra-object-id.js';
import type { PeopleGroup } from '../../ports/people-directory.js';
import { GraphError, type GraphClient } from './graph-client.js';

/** A person as Graph lists a group's members. */
export interface GraphUser {
  id: string;
  displayName?: string | null;
  mail?: string | null;
  userPrincipalName?: string | null;
}

interface GraphGroup {
  id: string;
  displayName?: string | null;
  mailNickname?: string | null;
}

/** What one role entry turned out to be: a group with its members, or not a group in this tenant. */
type Resolved = { group: PeopleGroup; users: GraphUser[] } | { group: null };

/**
 * The role entries of burnrate.yml that name Entra groups (an object id, or `@mailNickname`), with
 * their members read through Microsoft Graph, nested groups included (transitiveMembers), so a
 * group can hold a role in Teams as a Slack user group does in Slack. Members are Entra object ids,
 * which is what Teams says about whoever clicks. A failed read keeps the entry's last good copy, so
 * an outage does not take roles away.
 */
export class EntraGroups {
  private resolved = new Map<string, Resolved>();

  constructor(
    /** The Graph client for the bot's tenant; null while that tenant is not known yet (a multi-tenant bot before its first install). */
    private readonly graph: () => Promise<GraphClient | null>,
    /** The burnrate.yml entries that hold roles, read again on each refresh (the configuration may be reloaded). */
    private readonly roleEntries: () => readonly string[],
    private readonly log: Logger,
  ) {}

  /** Resolves every group-shaped entry again; true when Graph answered for at least one. */
  async refresh(): Promise<boolean> {
    const refs = [...new Set(this.roleEntries())].filter(isGroupShaped);
    if (refs.length === 0) return false;
    const graph = await this.graph();
    if (!graph) {
      this.log.warn('Entra groups not read: the tenant is not known until burnrate is installed in a team');
      return false;
    }
    const next = new Map<string, Resolved>();
    const failed: string[] = [];
    let firstError = '';
    for (const ref of refs) {
      try {
        next.set(ref, await this.resolve(graph, ref));
      } catch (error) {
        failed.push(ref);
        firstError ||= describe(error);
        const last = this.resolved.get(ref);
        if (last) next.set(ref, last);
      }
    }
    this.resolved = next;
    if (failed.length > 0)
      this.log.warn(
        { groups: failed, err: firstError },
        'Entra groups not readable through Microsoft Graph: their members stay as last read',
      );
    return failed.length < refs.length;
  }

  group(ref: string): PeopleGroup | undefined {
    const found = this.resolved.get(ref) ?? this.resolved.get(ref.toLowerCase());
    if (found?.group) return found.group;
    // A group named one way (`@ml-leads`) is the same group when named by its object id.
    for (const entry of this.resolved.values()) if (entry.group && entry.group.id.toLowerCase() === ref.toLowerCase()) return entry.group;
    return undefined;
  }

  /** The people met as members of some group: their names and emails, for mentions and email entries. */
  members(): Iterable<GraphUser> {
    return [...this.resolved.values()].flatMap((entry) => (entry.group ? entry.users : []));
  }

  private async resolve(graph: GraphClient, ref: string): Promise<Resolved> {
    const found = ref.startsWith('@') ? await this.byNickname(graph, ref.slice(1)) : await this.byId(graph, ref);
    if (!found) return { group: null };
    const users = await graph.all<GraphUser>(
      `/groups/${encodeURIComponent(found.id)}/transitiveMembers/microsoft.graph.user?$select=id,displayName,mail,userPrincipalName&$top=999`,
    );
    const handle = found.mailNickname || found.id;
    return { group: { id: found.id, handle, name: found.displayName || handle, members: users.map((u) => u.id) }, users };
  }

  /** A 404 means the id is someone's, not a group's: a person listed by object id. */
  private async byId(graph: GraphClient, id: string): Promise<GraphGroup | null> {
    try {
      return await graph.get<GraphGroup>(`/groups/${encodeURIComponent(id)}?$select=id,displayName,mailNickname`);
    } catch (error) {
      if (error instanceof GraphError && error.status === 404) return null;
      throw error;
    }
  }

  /** No group with that nickname: the entry may be another platform's group (a Slack handle). */
  private async byNickname(graph: GraphClient, nickname: string): Promise<GraphGroup | null> {
    // OData string literals escape a quote by doubling it; the config schema already forbids quotes in handles.
    const filter = `mailNickname eq '${nickname.replace(/'/g, "''")}'`;
    const body = await graph.get<{ value?: GraphGroup[] }>(
      `/groups?$filter=${encodeURIComponent(filter)}&$select=id,displayName,mailNickname`,
    );
    return body.value?.[0] ?? null;
  }
}

/** Entries that may name an Entra group: an object id, or a handle. */
export function isGroupShaped(ref: string): boolean {
  return ENTRA_OBJECT_ID.test(ref) || /^@[A-Za-z0-9][A-Za-z0-9._-]*$/.test(ref);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
