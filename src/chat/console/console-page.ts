import { escapeHtml } from '../../../templates/render/html.js';
import type { ConsoleChannel, ConsoleUser } from './console-directory.js';
import { CONSOLE_SCRIPT } from './console-script.js';
import { CONSOLE_CSS } from './console-style.js';

export interface ConsolePageData {
  /** Fresh per response: only the page's own style and script carry it. */
  nonce: string;
  users: readonly ConsoleUser[];
  channels: readonly ConsoleChannel[];
  as: string;
  channel: string;
  /** The newest message id the viewer can see, per channel: the script lights unread markers from it. */
  latest: Readonly<Record<string, number>>;
  /** The selected channel's stream, already rendered (see console-stream.ts). */
  streamHtml: string;
  /** Which look the stream has: the Slack-like HTML, or the cards Teams receives. */
  view?: 'slack' | 'teams';
}

/**
 * The Content-Security-Policy of the page: nothing loads from elsewhere, only nonce'd style and
 * script run, and the page talks to its own origin only. A tag value that slipped past escaping
 * would still find no way to run script.
 */
export function consoleCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The whole console page, server-rendered: it is complete before any script runs. */
export function renderConsolePage(data: ConsolePageData): string {
  const current = data.channels.find((c) => c.id === data.channel) ?? data.channels[0];
  const link = (c: ConsoleChannel) => {
    const title = c.id.startsWith('@') ? c.name : `# ${c.id}`;
    const topic = c.id.startsWith('@') ? c.topic : `${c.name} · ${c.topic}`;
    const href = `/?${new URLSearchParams({ channel: c.id, as: data.as }).toString()}`;
    return (
      `<li><a class="channel" href="${escapeHtml(href)}" data-channel="${escapeHtml(c.id)}" data-title="${escapeHtml(title)}" data-topic="${escapeHtml(topic)}" data-latest="${data.latest[c.id] ?? 0}"${c.id === current?.id ? ' aria-current="page"' : ''}>` +
      `<span class="hash" aria-hidden="true">${c.id.startsWith('@') ? '@' : '#'}</span><span>${escapeHtml(c.id.startsWith('@') ? c.name : c.id)}</span><span class="unread" hidden></span></a></li>`
    );
  };
  const teams = data.channels.filter((c) => !c.id.startsWith('@'));
  const direct = data.channels.filter((c) => c.id.startsWith('@'));
  const options = data.users.map(
    (u) =>
      `<option value="${escapeHtml(u.id)}"${u.id === data.as ? ' selected' : ''}>${escapeHtml(u.name === u.id ? u.id : `${u.name} (${u.id})`)} — ${escapeHtml(u.roles)}</option>`,
  );
  const view = data.view ?? 'slack';
  const title = current ? (current.id.startsWith('@') ? current.name : `# ${current.id}`) : '';
  const topic = current ? (current.id.startsWith('@') ? current.topic : `${current.name} · ${current.topic}`) : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>burnrate console</title>
<link rel="icon" href="data:,">
<style nonce="${data.nonce}">${CONSOLE_CSS}</style>
</head>
<body data-channel="${escapeHtml(current?.id ?? '')}" data-view="${view}">
<div class="app">
  <header class="topbar">
    <div class="brand"><span class="logo" aria-hidden="true">b</span>burnrate <span class="sub">console · what the bot posts, without Slack or Teams</span></div>
    <label class="actas">Acting as <select id="as" name="as">${options.join('')}</select></label>
  </header>
  <nav class="sidebar" aria-label="Channels">
    <h2>Channels</h2>
    <ul>${teams.map(link).join('')}</ul>
    <h2>Direct messages</h2>
    <ul>${direct.map(link).join('')}</ul>
    <p class="sidebar-foot">One channel per team. Pick who you act as at the top: buttons and commands are checked against that user's roles.</p>
  </nav>
  <main class="main">
    <header class="channel-head"><div class="channel-name"><h1 id="channel-title">${escapeHtml(title)}</h1><p id="channel-topic">${escapeHtml(topic)}</p></div>
      <div class="views" role="group" aria-label="Show messages as"><button type="button" data-view="slack" aria-pressed="${view === 'slack'}">Slack</button><button type="button" data-view="teams" aria-pressed="${view === 'teams'}">Teams</button></div></header>
    <section id="stream" class="stream" aria-label="Messages" aria-live="polite">${data.streamHtml}</section>
    <form id="command" class="composer" autocomplete="off">
      <label for="command-text" class="prefix">/burnrate</label>
      <input id="command-text" name="text" placeholder="spend · budget · top 5 · whoami · help" aria-label="Command" maxlength="500">
      <button type="submit">Send</button>
    </form>
    <p id="status" class="status" role="status"></p>
  </main>
</div>
<dialog id="confirm" aria-labelledby="confirm-title">
  <form method="dialog">
    <h2 id="confirm-title"></h2>
    <p id="confirm-text"></p>
    <menu><button class="btn" value="deny" id="confirm-deny"></button><button class="btn btn-primary" value="ok" id="confirm-ok"></button></menu>
  </form>
</dialog>
<script nonce="${data.nonce}" src="/console/adaptivecards.js"></script>
<script nonce="${data.nonce}">${CONSOLE_SCRIPT}</script>
</body>
</html>
`;
}

/** What a browser without the token sees: how to get in, and nothing else. */
export function renderTokenPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>burnrate console</title></head><body><h1>burnrate console</h1><p>This console needs its token. Open it once as <code>/?token=&lt;CONSOLE_TOKEN&gt;</code>; the browser then keeps a session cookie.</p></body></html>`;
}
