import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';
import type { Config } from '../../config/schema.js';
import type { ChatPlatform } from '../chat-platform.js';
import { TEAMS_PLATFORM } from './teams-platform-id.js';
import { checkTeamsCanServe, INSECURE_WARNING, readTeamsSettings, type TeamsSettings } from './teams-settings.js';

declare module '../../config/chat-channels.js' {
  interface ChatChannels {
    /** The team's Teams channel or conversation (`msteams: { channel: 19:…@thread.tacv2 }`). */
    msteams?: ChatChannel;
  }
}

/** Every burnrate.yml entry that holds a role: the ones Teams may have to read as Entra groups. */
function roleEntries(config: Config): string[] {
  return [...config.admins, ...config.teams.flatMap((t) => [...t.owners, ...t.approvers])];
}

/** Microsoft Teams on the Microsoft 365 Agents SDK: Adaptive Cards through the Bot Connector; activities arrive at /api/messages. */
export const teamsPlatform: ChatPlatform<TeamsSettings> = {
  id: TEAMS_PLATFORM,
  channel: { key: 'msteams', hint: 'a Teams channel or conversation id' },
  remote: true,
  hint: 'MICROSOFT_APP_ID, MICROSOFT_APP_TENANT_ID and a credential for Teams',
  render: renderAdaptiveCard,
  readSettings: (env) => readTeamsSettings(env),
  async createPort(settings, { config, store, log }) {
    // Loaded here: the Bot Framework client is for commands that send, not every command's.
    const { createTeamsChat } = await import('./teams-chat.js');
    return createTeamsChat(settings, store.conversations, log, undefined, { roleEntries: () => roleEntries(config) });
  },
  checkServe: checkTeamsCanServe,
  async serve(settings, { deps, dispatch, say }) {
    if (settings.insecure) {
      say(INSECURE_WARNING);
      deps.log.warn('teams authentication is off (BURNRATE_INSECURE_DEV=1)');
    }
    // Loaded here: the bot's turn handling is serve's alone, not every command's.
    const { createTeamsApp } = await import('./teams-app.js');
    const app = createTeamsApp(deps, { dispatch, authenticated: !settings.insecure });
    return { routes: app.routes, lines: [app.describe()] };
  },
};
