import type { TokenCredential } from '@azure/identity';
import type { ChatConversationStore } from '../../store/chat-conversations.js';
import { botCredential, type EntraOptions } from './bot-credential.js';
import { GraphClient, PUBLIC_GRAPH_URL } from './graph-client.js';
import { TEAMS_PLATFORM } from './teams-conversations.js';
import type { TeamsSettings } from './teams-settings.js';

/** How the Teams side reaches Microsoft Graph: where it is, how the credential reaches Entra, and (for tests) as whom. */
export interface GraphOptions {
  graphUrl?: string;
  entra?: EntraOptions;
  /** The app to sign in as; given, it replaces the one in the Teams settings. */
  app?: { appId: string; tenantId: string | null; credential: Extract<TeamsSettings, { insecure: false }>['credential'] };
}

/**
 * The Graph client of the bot's app, or a reason there is none. The bot signs in to Graph with
 * the credential it signs in to the Bot Connector with (a secret, a certificate, a managed
 * identity, a federated credential or workload identity), through @azure/identity. Without
 * authentication (local testing) there is no credential at all. A multi-tenant app has no tenant
 * of its own: it reads Graph in the tenant of the teams it was installed in.
 */
export function graphAccess(
  settings: TeamsSettings,
  conversations: ChatConversationStore,
  options: GraphOptions = {},
): { client: () => Promise<GraphClient | null>; unavailable: string | null } {
  const app = options.app ?? (settings.insecure ? null : settings);
  if (!app)
    return {
      client: async () => null,
      unavailable: 'Teams runs without an app id, so there are no credentials to read Microsoft Graph with',
    };
  const clients = new Map<string, GraphClient>();
  const client = async () => {
    const tenantId = app.tenantId ?? (await installedTenant(conversations));
    if (!tenantId) return null;
    let graph = clients.get(tenantId);
    if (!graph) {
      const credential: TokenCredential = botCredential(app.appId, tenantId, app.credential, options.entra);
      graph = new GraphClient(credential, options.graphUrl ?? PUBLIC_GRAPH_URL);
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
