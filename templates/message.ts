/**
 * The neutral message model. Templates build a Message; renderers turn it into Slack Block Kit,
 * Adaptive Cards 1.5 or plain text. Nothing outside templates/render knows either chat dialect.
 *
 * Inline text uses one tiny markup that every renderer understands: **bold** and nothing else.
 * Everything else is literal text, escaped by the renderer as its dialect needs.
 */
export interface Message {
  /** Notification and fallback text: what a phone shows and what screen readers read first. */
  summary: string;
  blocks: Block[];
  /** A thread reply that is news for the whole channel: Slack shows it there too (reply_broadcast). */
  broadcast?: boolean;
  /**
   * The IANA zone of the team it is for: where a platform cannot show each reader's own time
   * (Teams, the console, the terminal), its moments read on that wall clock, labelled; UTC without.
   */
  timeZone?: string;
}

export type Block =
  | HeaderBlock
  | TextBlock
  | FactsBlock
  | TableBlock
  | ChartBlock
  | ImageBlock
  | PlotBlock
  | DividerBlock
  | ActionsBlock
  | ContextBlock
  | MentionsBlock;

export interface HeaderBlock {
  type: 'header';
  text: string;
}

export interface TextBlock {
  type: 'text';
  text: string;
}

/** Label/value pairs, e.g. Spent / Budget / Forecast. */
export interface FactsBlock {
  type: 'facts';
  facts: { label: string; value: string }[];
}

export interface TableBlock {
  type: 'table';
  columns: { label: string; align?: 'left' | 'right' }[];
  rows: string[][];
  /** Per row, a page its first cell links to (a resource's cloud console); null where it has none. */
  links?: (string | null)[];
}

/** A small horizontal bar chart; renderers draw it with text where the platform has no charts. */
export interface ChartBlock {
  type: 'chart';
  title: string;
  bars: { label: string; value: number; display: string }[];
}

/**
 * A picture (a rendered chart) as PNG bytes. Chat ports with the `files` capability send it as a
 * file (Slack uploads it into the thread); renderers show it inline where the dialect can (HTML,
 * Adaptive Card data URI) and name it where it cannot (plain text).
 */
export interface ImageBlock {
  type: 'image';
  title: string;
  /** What the picture shows, for screen readers and text-only surfaces. */
  alt: string;
  filename: string;
  /** The PNG, base64. */
  png: string;
}

/**
 * A chart the platform draws itself from its numbers (Slack's data_visualization block, a Teams
 * card's Chart.* element): readable on any screen, themed, and read aloud. Built from the same
 * series the PNG is drawn from (src/charts/), so the two never disagree.
 */
export interface PlotBlock {
  type: 'plot';
  plot: Plot;
  /** The numbers in words: for screen readers and every surface that cannot draw the chart. */
  alt: string;
  /** The same chart as a PNG (base64), where the dialect has a fallback slot (a card's `fallback`). */
  png?: string;
}

/**
 * A chart as data. `line` values are levels (a running total): thinning the points keeps the
 * ones shown exact. `bar` values are amounts over their label's span: merging bars sums them.
 * `donut` is parts of a whole; `gauge` one value against its maximum.
 */
export type Plot =
  | { kind: 'line' | 'bar'; title: string; xLabel: string; yLabel: string; categories: string[]; series: PlotSeries[] }
  | { kind: 'donut'; title: string; segments: { label: string; value: number }[] }
  | { kind: 'gauge'; title: string; value: number; max: number; label: string };

/** One series: a value for every category, in the categories' order. */
export interface PlotSeries {
  name: string;
  values: number[];
}

export interface DividerBlock {
  type: 'divider';
}

export interface ActionsBlock {
  type: 'actions';
  buttons: Button[];
  /** A pick-one menu after the buttons (e.g. the owner of a cost line). */
  select?: Select;
}

/** A menu of choices; the chosen option's value comes back like a button's value. */
export interface Select {
  action: string;
  placeholder: string;
  /** At most 100; each value at most 150 characters (Slack's option limit). */
  options: { label: string; value: string }[];
  /** The value shown as chosen. */
  initial?: string;
}

/**
 * People the message is for, after a lead ("Approvers:"): pinged where the platform can (Slack
 * `<@U…>` and `<!subteam^S…>`, a Teams `<at>` mention), named everywhere else.
 */
export interface MentionsBlock {
  type: 'mentions';
  lead: string;
  people: Mention[];
}

/** A person or group as a message names them. */
export interface Mention {
  /** The platform's id to ping; null to name them without a ping (an id of another platform, say). */
  id: string | null;
  name: string;
  group: boolean;
  /**
   * The chat platform the id belongs to (`slack`, `teams`): a copy of the message for another
   * platform names them without a ping. Absent: the id is the platform's the message goes to.
   */
  platform?: string;
}

export interface ContextBlock {
  type: 'context';
  text: string;
}

export interface Button {
  /** The action id, e.g. `budget.ack`: Slack's action_id and Teams' Action.Execute verb alike. */
  action: string;
  label: string;
  /** Opaque payload returned on click (ids only, never secrets); at most 2,000 characters. */
  value: string;
  style?: 'primary' | 'danger';
  confirm?: { title: string; text: string; confirm: string; deny: string };
  /** A link button: opens this https URL (a cloud console, a dashboard); burnrate is told of no click. */
  url?: string;
}

/** Only https (and http, for dashboards on a private network) URLs become links; anything else is dropped. */
export function isLinkUrl(url: string): boolean {
  return /^https?:\/\/[^\s<>"\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+$/.test(url) && url.length <= 3000;
}

/** Replaces **bold** spans with what a dialect uses; the rest of the text passes through `escape`. */
export function mapBold(text: string, escape: (s: string) => string, bold: (s: string) => string): string {
  return text
    .split(/(\*\*[^*]+\*\*)/g)
    .map((part) => (/^\*\*[^*]+\*\*$/.test(part) ? bold(escape(part.slice(2, -2))) : escape(part)))
    .join('');
}

/** Plain text of inline markup. */
export function stripMarkup(text: string): string {
  return mapBold(
    text,
    (s) => s,
    (s) => s,
  );
}

/** A moment inside text: `⟦t:<epoch seconds>⟧`, drawn by each renderer (see mapTimes). */
const TIME_TOKEN = /⟦t:(\d{1,12})⟧/g;

/** A moment in text: Slack shows it in each reader's own time zone; other surfaces on the message's zone's clock ("2026-11-20 10:00 CET"). */
export function timeOf(date: Date): string {
  return `⟦t:${Math.floor(date.getTime() / 1000)}⟧`;
}

/** Text with each moment drawn by `show` and the rest passed through `rest` (a dialect's escape). */
export function mapTimes(text: string, rest: (s: string) => string, show: (date: Date) => string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(TIME_TOKEN)) {
    out += rest(text.slice(last, match.index)) + show(new Date(Number(match[1]) * 1000));
    last = match.index + match[0].length;
  }
  return out + rest(text.slice(last));
}

/** The message for a team in `timeZone`, unless it already names one (a message is for one team); UTC is the default. */
export function inTimeZone(message: Message, timeZone: string | undefined): Message {
  return message.timeZone || !timeZone || timeZone === 'UTC' ? message : { ...message, timeZone };
}

/**
 * A person inside text: `⟦p:<group>:<platform>:<id>:<name>⟧`, each part URI-encoded so no name can
 * end the token early. Each renderer draws it as its platform names people (Slack `<@U…>`, a Teams
 * `<at>` mention, a name on the console and the terminal); see mapPeople.
 */
const PERSON_TOKEN = /⟦p:([01]):([^:⟧]*):([^:⟧]*):([^:⟧]*)⟧/g;

/** Names longer than this are cut: a person is a name, not a paragraph. */
const MAX_PERSON_NAME = 80;

/** A person or group in text: pinged where the platform can, named everywhere else. */
export function personIn(person: Mention): string {
  const name = person.name.replace(/\s+/g, ' ').trim().slice(0, MAX_PERSON_NAME) || person.id || 'someone';
  // `*` too: a name must not open or close a **bold** span around it.
  const part = (s: string | null | undefined) => encodeURIComponent(s ?? '').replace(/\*/g, '%2A');
  return `⟦p:${person.group ? 1 : 0}:${part(person.platform)}:${part(person.id)}:${part(name)}⟧`;
}

/** Text with each person drawn by `show` and the rest passed through `rest` (a dialect's escape). */
export function mapPeople(text: string, rest: (s: string) => string, show: (person: Mention) => string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PERSON_TOKEN)) {
    out += rest(text.slice(last, match.index)) + show(personOfToken(match));
    last = match.index + match[0].length;
  }
  return out + rest(text.slice(last));
}

/** The people named in text, in order (a Teams card lists each mention among its entities). */
export function peopleIn(text: string): Mention[] {
  return [...text.matchAll(PERSON_TOKEN)].map(personOfToken);
}

function personOfToken(match: RegExpMatchArray): Mention {
  const part = (i: number) => {
    try {
      return decodeURIComponent(match[i] ?? '');
    } catch {
      return '';
    }
  };
  return { group: match[1] === '1', ...(part(2) ? { platform: part(2) } : {}), id: part(3) || null, name: part(4) };
}

/** Whether a person can be pinged on `platform`: an id of that platform (or of no platform named). */
export function pingableOn(person: Mention, platform: string): person is Mention & { id: string } {
  return person.id !== null && (person.platform === undefined || person.platform === platform);
}
