/**
 * The console page's only script, served inline under a CSP nonce. It does five things and no
 * rendering of its own: switch channel and user, post commands and clicks as JSON, ask for a
 * confirm where a button has one, re-fetch the server-rendered stream when the server says
 * something changed (server-sent events), and show which channels hold messages the user acted as
 * has not seen. Everything it inserts is HTML the server escaped, and everything it writes itself
 * goes through textContent.
 *
 * What was seen is kept in the browser (localStorage, per user acted as): the newest message id
 * shown in each channel. The server says the newest id each channel holds for that user (the
 * links' data-latest, and every stream it sends), so markers are right from the first load and a
 * reload does not bring back the ones already cleared.
 */
export const CONSOLE_SCRIPT = `
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const stream = $('stream'), picker = $('as'), form = $('command'), input = $('command-text'), status = $('status');
  const state = { channel: document.body.dataset.channel, as: picker.value, view: document.body.dataset.view || 'slack' };
  let loading = null, again = false;

  function say(text, isError) {
    status.textContent = text || '';
    status.classList.toggle('error', Boolean(isError));
  }

  function localTimes(root) {
    for (const el of root.querySelectorAll('time[datetime]')) {
      const at = new Date(el.getAttribute('datetime'));
      if (Number.isNaN(at.getTime())) continue;
      const today = new Date().toDateString() === at.toDateString();
      el.textContent = at.toLocaleString(undefined, today ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
      el.title = at.toLocaleString();
    }
  }

  // Storage can be off (a private window, a policy): markers then show what is new since the page opened.
  const memory = {};
  function seenOf(viewer) {
    const key = 'burnrate.console.seen.' + viewer;
    try { return JSON.parse(localStorage.getItem(key) || '{}') || {}; } catch { return memory[key] || {}; }
  }
  function markSeen(channel, id) {
    const key = 'burnrate.console.seen.' + state.as;
    const seen = seenOf(state.as);
    if (!(id > (seen[channel] || 0))) return;
    seen[channel] = id;
    memory[key] = seen;
    try { localStorage.setItem(key, JSON.stringify(seen)); } catch { /* kept in memory only */ }
  }
  function showUnread() {
    const seen = seenOf(state.as);
    for (const link of document.querySelectorAll('a.channel')) {
      const channel = link.dataset.channel;
      link.querySelector('.unread').hidden = channel === state.channel || !(Number(link.dataset.latest) > (seen[channel] || 0));
    }
  }
  function linkOf(channel) {
    return document.querySelector('a.channel[data-channel="' + CSS.escape(channel) + '"]');
  }

  function pageUrl() {
    const params = new URLSearchParams({ channel: state.channel, as: state.as });
    if (state.view === 'teams') params.set('view', 'teams');
    return location.pathname + '?' + params.toString();
  }

  // The Teams view: each message is the card Teams receives, drawn by Microsoft's card SDK. Its
  // markdown is the little Teams reads in cards (bold, escapes, <at> mentions), written through
  // an escape first, so a card's text never becomes markup.
  const AC = window.AdaptiveCards;
  if (AC) {
    const escape = (text) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
    AC.AdaptiveCard.onProcessMarkdown = (text, result) => {
      result.outputHtml = escape(text)
        .replace(/\\*\\*(.+?)\\*\\*/g, '<strong>$1</strong>')
        .replace(/&lt;at&gt;(.+?)&lt;\\/at&gt;/g, '<strong class="mention">@$1</strong>')
        .replace(/\\\\([\\\\\\x60*_{}\\[\\]()#+\\-.!|~>])/g, '$1')
        .replace(/\\n/g, '<br>');
      result.didProcess = true;
    };
  }
  const hostConfig = AC ? new AC.HostConfig({ fontFamily: "'Segoe UI', system-ui, -apple-system, sans-serif" }) : null;
  function drawCards(root) {
    for (const holder of root.querySelectorAll('.ac-card')) {
      if (!AC) { holder.textContent = 'The Teams view needs the adaptivecards package: npm install adaptivecards'; continue; }
      const card = new AC.AdaptiveCard();
      card.hostConfig = hostConfig;
      card.onExecuteAction = (action) => {
        if (action instanceof AC.OpenUrlAction) { window.open(action.url, '_blank', 'noopener'); return; }
        if (action instanceof AC.ExecuteAction) act(action.verb, action.data && action.data.value, holder.closest('[data-message-id]'), null, action.title);
      };
      card.parse(JSON.parse(holder.dataset.card));
      const drawn = card.render();
      if (drawn) holder.replaceChildren(drawn);
    }
  }

  async function post(path, body) {
    const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || res.status + ' ' + res.statusText);
    return data;
  }

  // One fetch at a time; changes that arrive meanwhile cause exactly one more.
  async function refresh(scroll) {
    if (loading) { again = true; return loading; }
    loading = (async () => {
      try {
        const viewer = state.as;
        const res = await fetch('/console/messages?' + new URLSearchParams({ channel: state.channel, as: viewer, view: state.view }), { credentials: 'same-origin' });
        const data = await res.json();
        if (!res.ok) { say(data.error, true); return; }
        const nearBottom = stream.scrollHeight - stream.scrollTop - stream.clientHeight < 80;
        stream.innerHTML = data.html;
        drawCards(stream);
        if (viewer === state.as) {
          for (const [channel, id] of Object.entries(data.latest || {})) {
            const link = linkOf(channel);
            if (link) link.dataset.latest = String(id);
          }
          markSeen(data.channel, data.latest ? data.latest[data.channel] : 0);
          showUnread();
        }
        // Whose view the stream shows: it lags the picker while the request runs.
        stream.dataset.viewer = viewer;
        localTimes(stream);
        if (scroll || nearBottom) stream.scrollTop = stream.scrollHeight;
      } catch (error) {
        say('cannot reach burnrate: ' + error.message, true);
      } finally {
        loading = null;
      }
    })();
    await loading;
    if (again) { again = false; await refresh(false); }
  }

  function selectChannel(link) {
    state.channel = link.dataset.channel;
    document.body.dataset.channel = state.channel;
    for (const other of document.querySelectorAll('.channel')) other.removeAttribute('aria-current');
    link.setAttribute('aria-current', 'page');
    markSeen(state.channel, Number(link.dataset.latest));
    showUnread();
    $('channel-title').textContent = link.dataset.title;
    $('channel-topic').textContent = link.dataset.topic;
    history.replaceState(null, '', pageUrl());
    say('');
    refresh(true);
    input.focus();
  }

  function confirmed(button) {
    if (!button.dataset.confirmTitle) return Promise.resolve(true);
    const dialog = $('confirm');
    $('confirm-title').textContent = button.dataset.confirmTitle;
    $('confirm-text').textContent = button.dataset.confirmText;
    $('confirm-ok').textContent = button.dataset.confirmOk;
    $('confirm-deny').textContent = button.dataset.confirmDeny;
    dialog.returnValue = '';
    dialog.showModal();
    return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true }));
  }

  document.querySelector('.sidebar').addEventListener('click', (event) => {
    const link = event.target.closest('a.channel');
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    selectChannel(link);
  });

  picker.addEventListener('change', () => {
    state.as = picker.value;
    history.replaceState(null, '', pageUrl());
    say('now acting as ' + state.as);
    refresh(true);
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = input.value.trim().replace(/^\\/burnrate\\b\\s*/i, '');
    input.disabled = true;
    say('running /burnrate ' + text + ' …');
    try {
      await post('/console/command', { as: state.as, channel: state.channel, text });
      input.value = '';
      say('');
      await refresh(true);
    } catch (error) {
      say(error.message, true);
    } finally {
      input.disabled = false;
      input.focus();
    }
  });

  // A click, from a button of the Slack view or an action of a Teams card: the same request.
  async function act(action, value, message, button, label) {
    if (button) button.disabled = true;
    say(label + ' …');
    try {
      await post('/console/action', { as: state.as, action, value: value || '', messageId: Number(message.dataset.messageId) });
      say('');
      await refresh(false);
    } catch (error) {
      if (button) button.disabled = false;
      say(error.message, true);
    }
  }

  stream.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    if (!(await confirmed(button))) return;
    act(button.dataset.action, button.dataset.value, button.closest('[data-message-id]'), button, button.textContent);
  });

  for (const toggle of document.querySelectorAll('.views button')) {
    toggle.addEventListener('click', () => {
      state.view = toggle.dataset.view;
      document.body.dataset.view = state.view;
      for (const other of document.querySelectorAll('.views button')) other.setAttribute('aria-pressed', String(other === toggle));
      history.replaceState(null, '', pageUrl());
      refresh(false);
    });
  }

  const events = new EventSource('/console/events');
  events.addEventListener('change', (event) => {
    const change = JSON.parse(event.data);
    if (change.privateTo && change.privateTo !== state.as) return;
    if (change.channel === state.channel) { refresh(false); return; }
    const link = linkOf(change.channel);
    // An edit of a message already seen has an old id: only new messages light the marker.
    if (link && change.id > Number(link.dataset.latest)) link.dataset.latest = String(change.id);
    showUnread();
  });
  events.addEventListener('open', () => { if (status.classList.contains('error')) { say(''); refresh(false); } });
  events.addEventListener('error', () => say('live updates paused: reconnecting to burnrate …', true));

  markSeen(state.channel, Number(linkOf(state.channel)?.dataset.latest || 0));
  showUnread();
  localTimes(stream);
  drawCards(stream);
  stream.scrollTop = stream.scrollHeight;
})();
`;
