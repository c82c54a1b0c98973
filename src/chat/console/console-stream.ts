import type { ConsoleMessage } from '../../store/console-messages.js';
import { escapeHtml, renderHtml } from '../../../templates/render/html.js';
import type { ConsoleChannel, NameOf } from './console-directory.js';
import { cardHtml, type ConsoleView } from './console-teams-view.js';

/**
 * A channel's messages as HTML: top-level messages in order, each with its thread below it.
 * Message bodies come from the HTML renderer (which escapes everything); this file adds the
 * chat chrome around them: who, when, edited, visible only to you.
 */
export function renderStream(
  messages: readonly ConsoleMessage[],
  channel: ConsoleChannel,
  view: ConsoleView = 'slack',
  nameOf: NameOf = () => undefined,
): string {
  const replies = new Map<number, ConsoleMessage[]>();
  for (const m of messages) if (m.parentId !== null) replies.set(m.parentId, [...(replies.get(m.parentId) ?? []), m]);
  const roots = messages.filter((m) => m.parentId === null);
  if (roots.length === 0) return emptyStream(channel);
  // In the direct-message view everything is private: marking each message would only be noise.
  const marked = !channel.id.startsWith('@');
  return roots.map((m) => messageHtml(m, replies.get(m.id) ?? [], { marked, view, nameOf })).join('');
}

/** How the stream draws every message: private ones marked or not, in which look, people by name. */
interface StreamLook {
  marked: boolean;
  view: ConsoleView;
  nameOf: NameOf;
}

function messageHtml(m: ConsoleMessage, thread: readonly ConsoleMessage[], look: StreamLook): string {
  const { marked, view } = look;
  const isPrivate = marked && m.privateTo !== null;
  // A person who typed a command is named as people know them; the id only where no name is known.
  const who = m.author ? (look.nameOf(m.author) ?? m.author) : 'burnrate';
  const classes = ['msg', ...(m.author ? ['msg-user'] : []), ...(isPrivate ? ['msg-private'] : [])];
  const meta = [
    `<span class="msg-author">${escapeHtml(who)}</span>`,
    ...(m.author ? [] : ['<span class="badge">app</span>']),
    `<time datetime="${escapeHtml(m.createdAt)}">${escapeHtml(clock(m.createdAt))}</time>`,
    ...(m.updatedAt !== m.createdAt ? [`<span class="edited" title="edited ${escapeHtml(clock(m.updatedAt))} UTC">(edited)</span>`] : []),
    ...(isPrivate ? ['<span class="private-note">only visible to you</span>'] : []),
  ];
  const replies = thread.length
    ? `<div class="thread" aria-label="thread"><p class="thread-count">${thread.length} ${thread.length === 1 ? 'reply' : 'replies'}</p>${thread.map((r) => messageHtml(r, [], look)).join('')}</div>`
    : '';
  return (
    `<article class="${classes.join(' ')}" id="m-${m.id}" data-message-id="${m.id}">` +
    `<div class="avatar" aria-hidden="true">${escapeHtml(initial(who))}</div>` +
    `<div class="msg-main"><div class="msg-meta">${meta.join('')}</div>${view === 'teams' ? cardHtml(m.message) : renderHtml(m.message)}${replies}</div>` +
    '</article>'
  );
}

function emptyStream(channel: ConsoleChannel): string {
  const where = channel.id.startsWith('@') ? 'here' : `in #${channel.id}`;
  return `<div class="empty"><p class="empty-title">Nothing ${escapeHtml(where)} yet</p><p>Alerts appear when the team crosses a budget threshold. Type a command below, such as <strong>spend</strong> or <strong>help</strong>: the answer shows here, to you only.</p></div>`;
}

/** `14:05` in UTC; the page's script shows it in the browser's time zone. */
function clock(iso: string): string {
  return `${iso.slice(11, 16)}`;
}

/** The avatar letter: burnrate's "b", a name's first letter, or the first letter of a user id after its prefix. */
function initial(who: string): string {
  const letter = who === 'burnrate' ? 'b' : (who.replace(/^U0(DEMO)?/, '')[0] ?? who[0] ?? '?');
  return letter.toUpperCase();
}
