import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Deps } from '../deps.js';
import { callerOf } from './mcp-caller.js';

/**
 * What an assistant may read as context before asking: the teams its user may see (with their
 * budgets) and how fresh each source's data is. Read as that user on every read, like the tools,
 * and refused as they are once the caller's token is revoked or expired.
 */
export function registerResources(server: McpServer, deps: Deps, userId: string, stillAllowed?: () => Promise<void>): void {
  server.registerResource(
    'teams',
    'burnrate://teams',
    { title: 'Your teams', description: 'The teams you may see, with their budgets and time zones.', mimeType: 'application/json' },
    async (uri) => {
      await stillAllowed?.();
      const caller = callerOf(deps, userId);
      const teams = deps.config.teams
        .filter((t) => caller.visibleTeams.includes(t.id))
        .map((t) => ({
          id: t.id,
          name: t.name ?? t.id,
          timezone: t.timezone,
          budget: t.budget ?? null,
          roles: caller.roles.admin ? ['admin'] : (caller.roles.teams.find((r) => r.id === t.id)?.roles ?? []),
        }));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ teams }) }] };
    },
  );
  server.registerResource(
    'freshness',
    'burnrate://freshness',
    {
      title: 'Data freshness',
      description: "Each billing and metrics source: the data's end and when it was last read, and which failed since.",
      mimeType: 'application/json',
    },
    async (uri) => {
      await stillAllowed?.();
      const [sources, failed] = await Promise.all([deps.store.freshness.list(), deps.store.freshness.failures()]);
      // Which source failed and when, not its error text: a cloud's error can quote a request's details.
      const failures = failed.map(({ source, failedAt }) => ({ source, failedAt }));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ sources, failures }) }] };
    },
  );
}
