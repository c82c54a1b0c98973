import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';
import { escapeHtml } from '../../../templates/render/html.js';
import type { Message } from '../../../templates/message.js';

/** How the console shows messages: as its own HTML (the Slack look) or as the cards Teams receives. */
export type ConsoleView = 'slack' | 'teams';

export function viewOf(value: string | null): ConsoleView {
  return value === 'teams' ? 'teams' : 'slack';
}

/**
 * A message as the Teams view shows it: the very card the Teams port sends (templates/render/
 * adaptive-card.ts), as JSON in a data attribute; the page's script draws it with Microsoft's
 * card SDK. Escaped like any attribute, so no card text can leave it.
 */
export function cardHtml(message: Message): string {
  return `<div class="ac-card" data-card="${escapeHtml(JSON.stringify(renderAdaptiveCard(message)))}"></div>`;
}

let sdk: Promise<string | null> | null = null;

/**
 * Microsoft's Adaptive Cards SDK for the browser, read once from the installed `adaptivecards`
 * package (a development dependency: an install without it gets null, and the Teams view says so).
 */
export function cardSdk(): Promise<string | null> {
  sdk ??= (async () => {
    try {
      return await readFile(createRequire(import.meta.url).resolve('adaptivecards/dist/adaptivecards.min.js'), 'utf8');
    } catch {
      return null;
    }
  })();
  return sdk;
}
