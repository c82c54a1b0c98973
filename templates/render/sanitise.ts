/**
 * The one place that makes message text safe for every dialect. Message text carries data we do
 * not control (team and resource names, tags, service names, user names from billing exports and
 * chat), so every renderer first passes the whole message through `sanitiseMessage`, then escapes
 * what its dialect would otherwise read as markup with the matching escape below.
 */
import { isLinkUrl, mapPeople, mapTimes, personIn, type Block, type Button, type Message, type Plot, type Select } from '../message.js';
import { zonedMinute } from '../../src/domain/zoned-minute.js';

/**
 * C0 controls except tab and newline (NUL, ESC starts ANSI sequences, CR overwrites a line), DEL,
 * C1 controls, and the bidi controls that can reorder what a reader sees (LRM, RLM, ALM,
 * embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069). Zero-width joiners stay: emoji
 * sequences (👩‍💻) need them.
 */
const HOSTILE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Removes hostile code points; CR and CRLF become a newline first, so a line break stays one. */
export function stripHostile(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(HOSTILE, '');
}

function sanitiseButton(button: Button, plain: Clean): Button {
  // action and value are identifiers handed back on click, never shown: they pass untouched.
  const confirm = button.confirm && {
    title: plain(button.confirm.title),
    text: plain(button.confirm.text),
    confirm: plain(button.confirm.confirm),
    deny: plain(button.confirm.deny),
  };
  return { ...button, label: plain(button.label), ...(confirm ? { confirm } : {}) };
}

function sanitiseSelect(select: Select, plain: Clean): Select {
  return {
    ...select,
    placeholder: plain(select.placeholder),
    options: select.options.map((o) => ({ ...o, label: plain(o.label) })),
  };
}

function sanitiseBlock(block: Block, plain: Clean, rich: Clean): Block {
  switch (block.type) {
    case 'header':
      return { ...block, text: plain(block.text) };
    case 'text':
    case 'context':
      return { ...block, text: rich(block.text) };
    case 'facts':
      return { ...block, facts: block.facts.map((f) => ({ label: plain(f.label), value: rich(f.value) })) };
    case 'table':
      return {
        ...block,
        columns: block.columns.map((c) => ({ ...c, label: plain(c.label) })),
        rows: block.rows.map((row) => row.map((cell) => plain(cell))),
        ...(block.links ? { links: block.links.map((url) => (url !== null && isLinkUrl(url) ? url : null)) } : {}),
      };
    case 'chart':
      return {
        ...block,
        title: plain(block.title),
        bars: block.bars.map((b) => ({ ...b, label: plain(b.label), display: plain(b.display) })),
      };
    case 'image':
      return { ...block, title: plain(block.title), alt: plain(block.alt), filename: plain(block.filename) };
    case 'plot':
      return { ...block, plot: sanitisePlot(block.plot, plain), alt: plain(block.alt) };
    case 'actions':
      return {
        ...block,
        buttons: block.buttons.map((b) => sanitiseButton(b, plain)),
        ...(block.select ? { select: sanitiseSelect(block.select, plain) } : {}),
      };
    case 'mentions':
      return { ...block, lead: rich(block.lead), people: block.people.map((p) => ({ ...p, name: plain(p.name) })) };
    case 'divider':
      return block;
  }
}

type Clean = (text: string) => string;

/** A plot's words are data (team names, categories) like any text; a value that is no number draws as 0. */
function sanitisePlot(plot: Plot, plain: Clean): Plot {
  const n = (value: number) => (Number.isFinite(value) ? value : 0);
  switch (plot.kind) {
    case 'line':
    case 'bar':
      return {
        ...plot,
        title: plain(plot.title),
        xLabel: plain(plot.xLabel),
        yLabel: plain(plot.yLabel),
        categories: plot.categories.map(plain),
        series: plot.series.map((s) => ({ name: plain(s.name), values: s.values.map(n) })),
      };
    case 'donut':
      return { ...plot, title: plain(plot.title), segments: plot.segments.map((s) => ({ label: plain(s.label), value: n(s.value) })) };
    case 'gauge':
      return { ...plot, title: plain(plot.title), label: plain(plot.label), value: n(plot.value), max: n(plot.max) };
  }
}

/**
 * Every text of a message a person will see, with hostile code points removed, its moments
 * (timeOf) written on the clock of the message's zone ("2026-11-20 10:00 CET", UTC without one) and
 * its people (personIn) by name. With `keepTimes` (Slack, which draws them in each reader's time
 * zone) moments are kept in the text it reads as mrkdwn: text, context, fact values, leads; with
 * `keepPeople` (Slack and Teams, which ping) so are people, their names cleaned the same way.
 */
export function sanitiseMessage(msg: Message, options: { keepTimes?: boolean; keepPeople?: boolean } = {}): Message {
  const name = (text: string) => stripHostile(text).replace(/\s+/g, ' ').trim();
  const times = (text: string) =>
    mapTimes(
      text,
      (s) => s,
      (date) => zonedMinute(date, msg.timeZone),
    );
  const plain: Clean = (text) =>
    stripHostile(
      mapPeople(
        times(text),
        (s) => s,
        (person) => name(person.name),
      ),
    );
  const rich: Clean = (text) =>
    stripHostile(
      mapPeople(
        options.keepTimes ? text : times(text),
        (s) => s,
        (person) => (options.keepPeople ? personIn({ ...person, name: name(person.name) }) : name(person.name)),
      ),
    );
  return { ...msg, summary: plain(msg.summary), blocks: msg.blocks.map((block) => sanitiseBlock(block, plain, rich)) };
}

/**
 * Slack mrkdwn: &, < and > are its control characters (`<!channel>` pings a channel,
 * `<http://x|y>` is a link), so literal ones must be entities.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** HTML content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * Adaptive Card TextBlock and FactSet text is markdown in Teams: emphasis (`*`, `_`) and links
 * (`[text](url)`). Those characters get a backslash, which Teams shows as the character itself. A
 * `(` right after `]` is escaped too, so even a client that ignored backslash escapes would see
 * `]\(` and no link. A backslash is doubled only before punctuation, where it would escape
 * something; elsewhere (`C:\data`) markdown shows it as is.
 */
export function escapeCardMarkdown(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === '\\') out += ASCII_PUNCTUATION.test(text[i + 1] ?? '') ? '\\\\' : '\\';
    else if (char === '*' || char === '_' || char === '[' || char === ']') out += `\\${char}`;
    else if (char === '(' && text[i - 1] === ']') out += '\\(';
    else out += char;
  }
  return out;
}

/**
 * Plain text that some hosts still read as markdown (an Adaptive Card's `fallbackText` and
 * `speak`: notification previews and older clients format them): a `[label](url)` or
 * `[label][ref]` from the data becomes `label (url)`, so the target shows instead of hiding behind
 * the label, and no `](`, `][` or `<url>` autolink is left for a reader to follow. No backslashes:
 * a plain-text host would show them.
 */
export function neutraliseLinks(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\(([^)]*)\)/g, '$1 ($2)')
    .replace(/!?\[([^\]]*)\]\[([^\]]*)\]/g, '$1 ($2)')
    .replace(/\](?=[([])/g, '] ')
    .replace(/<((?:https?|mailto):[^>\s]*)>/gi, '$1');
}
