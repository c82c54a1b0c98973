/**
 * The console page's only script, served inline under a CSP nonce. It does four things and no
 * rendering of its own: switch channel and user, post commands and clicks as JSON, ask for a
 * confirm where a button has one, and re-fetch the server-rendered stream when the server says
 * something changed (server-sent events). Everything it inserts is HTML the server escaped, and
 * everything it writes itself goes through textContent.
 */
export const CONSOLE_SCRIPT = `
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const stream = $('stream'), picker = $('as'), form = $('command'), input = $('command-text'), status = $('status');
  const state = { channel: document.body.dataset.channel, as: picker.value };
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

  function pageUrl() {
    const params = new URLSearchParams({ channel: state.channel, as: state.as });
    return location.pathname + '?' + params.toString();
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
        const res = await fetch('/console/messages?' + new URLSearchParams({ channel: state.channel, as: viewer }), { credentials: 'same-origin' });
        const data = await res.json();
        if (!res.ok) { say(data.error, true); return; }
        const nearBottom = stream.scrollHeight - stream.scrollTop - stream.clientHeight < 80;
        stream.innerHTML = data.html;
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
    link.querySelector('.unread').hidden = true;
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

  stream.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const message = button.closest('[data-message-id]');
    if (!(await confirmed(button))) return;
    button.disabled = true;
    say(button.textContent + ' …');
    try {
      await post('/console/action', { as: state.as, action: button.dataset.action, value: button.dataset.value, messageId: Number(message.dataset.messageId) });
      say('');
      await refresh(false);
    } catch (error) {
      button.disabled = false;
      say(error.message, true);
    }
  });

  const events = new EventSource('/console/events');
  events.addEventListener('change', (event) => {
    const change = JSON.parse(event.data);
    if (change.privateTo && change.privateTo !== state.as) return;
    if (change.channel === state.channel) { refresh(false); return; }
    const link = document.querySelector('a.channel[data-channel="' + CSS.escape(change.channel) + '"]');
    if (link) link.querySelector('.unread').hidden = false;
  });
  events.addEventListener('open', () => { if (status.classList.contains('error')) { say(''); refresh(false); } });
  events.addEventListener('error', () => say('live updates paused: reconnecting to burnrate …', true));

  localTimes(stream);
  stream.scrollTop = stream.scrollHeight;
})();
`;
