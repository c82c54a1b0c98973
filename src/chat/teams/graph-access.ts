import type { ChatConversationStore } from '../../store/chat-conversations.js';
import { GraphClient, PUBLIC_GRAPH, type GraphCredentials, type GraphEndpoints } from './graph-client.js';
import { TEAMS_PLATFORM } from './teams-conversations.js';
import type { TeamsSettings } from './teams-settings.js';

/** How the Teams side reaches Microsoft Graph: where it is, and (for tests) as whom. */
export interface GraphOptions {
  endpoints?: GraphEndpoints;
  /** The app's own credentials; given, they replace those read from the Teams settings. */
  credentials?: Omit<GraphCredentials, 'tenantId'> & { tenantId?: string | null };
}

/**
 * The Graph client of the bot's app, or a reason there is none. The bot signs in to Graph as it
 * signs in to the Bot Connector: with its app id and client secret. A managed identity
 * (UserAssignedMSI) gets its tokens from the Azure host instead, which burnrate does not read;
 * without authentication (local testing) there are no credentials at all. A multi-tenant app has
 * no tenant of its own: it reads Graph in the tenant of the teams it was installed in.
 */
export function graphAccess(
  settings: TeamsSettings,
  conversations: ChatConversationStore,
  options: GraphOptions = {},
): { client: () => Promise<GraphClient | null>; unavailable: string | null } {
  const fromSettings =
    !settings.insecure && settings.password
      ? { clientId: settings.appId, clientSecret: settings.password, tenantId: settings.tenantId }
      : null;
  const credentials = options.credentials ?? fromSettings;
  if (!credentials) {
    const unavailable = settings.insecure
      ? 'Teams runs without an app id, so there are no credentials to read Microsoft Graph with'
      : 'a UserAssignedMSI bot has no client secret; burnrate reads Microsoft Graph with a client secret only';
    return { client: async () => null, unavailable };
  }
  const clients = new Map<string, GraphClient>();
  const client = async () => {
    const tenantId = credentials.tenantId ?? (await installedTenant(conversations));
    if (!tenantId) return null;
    let graph = clients.get(tenantId);
    if (!graph) {
      graph = new GraphClient(
        { clientId: credentials.clientId, clientSecret: credentials.clientSecret, tenantId },
        options.endpoints ?? PUBLIC_GRAPH,
      );
      clients.set(tenantId, graph);
    }
    return graph;
  };
  return { client, unavailable: null };
}

/** The tenant of the conversations burnrate was installed in (Teams puts it in every conversation reference). */
async function installedTenant(conversations: ChatConversationStore): Promise<string | null> {
  for (const stored of await conversations.list(TEAMS_PLATFORM)) {
    const tenantId = (stored.reference.conversation as { tenantId?: unknown } | undefined)?.tenantId;
    if (typeof tenantId === 'string' && tenantId) return tenantId;
  }
  return null;
}
