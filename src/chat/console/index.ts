import { renderHtml } from '../../../templates/render/html.js';
import type { Deps } from '../../deps.js';
import { NamedPeople } from '../../ports/named-people.js';
import type { PeopleDirectory } from '../../ports/people-directory.js';
import { DEMO_PEOPLE } from '../../providers/demo/demo-people.js';
import type { ChatPlatform } from '../chat-platform.js';
import { readConsoleSettings, type ConsoleSettings } from './console-settings.js';

/** The console names people as the chat platform beside it does, or as the demo organisation does. */
function consolePeople(deps: Deps): PeopleDirectory | undefined {
  const platform = deps.chat.find((port) => port.people)?.people;
  if (platform) return platform;
  return deps.config.sources.some((source) => source.type === 'demo') ? new NamedPeople(DEMO_PEOPLE) : undefined;
}

/** The console's line at start: where to open it, and whether it needs the token (never the token). */
function describeConsole(base: string, settings: ConsoleSettings): string {
  if (settings.token === null) return `console: ${base} — open it in a browser`;
  const reach = settings.loopback ? '' : ', reachable from other machines';
  return `console: ${base} — CONSOLE_TOKEN required${reach}: open it once as ${base}?token=<CONSOLE_TOKEN>`;
}

/**
 * The local web console: a chat platform in the browser, on serve's own server; on by default when
 * no remote platform is configured (CONSOLE, CONSOLE_TOKEN). It exists only while serve runs.
 */
export const consolePlatform: ChatPlatform<ConsoleSettings> = {
  id: 'console',
  remote: false,
  hint: 'in the console',
  render: renderHtml,
  readSettings(env, { host, remoteConfigured }) {
    if (host === null) return null;
    const settings = readConsoleSettings(env, { chatConfigured: remoteConfigured, host });
    return settings.enabled ? settings : null;
  },
  async serve(settings, { deps, dispatch }) {
    // Loaded here: the console exists only while serve runs.
    const [{ ConsoleChat }, { createConsoleRoutes }] = await Promise.all([import('./console-chat.js'), import('./console-server.js')]);
    // Created after the other platforms' ports, whose people it names.
    const chat = new ConsoleChat(deps.store.console, deps.clock, consolePeople(deps));
    deps.chat.push(chat);
    return {
      routes: createConsoleRoutes(deps, { chat, settings, dispatch }),
      lines: [],
      listening: (base) => [describeConsole(base, settings)],
    };
  },
};
