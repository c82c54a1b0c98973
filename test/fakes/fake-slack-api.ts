import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseForm } from 'node:querystring';
import { blockKitProblems, viewProblems } from './fake-slack-api-block-kit.js';
import { closeServer, readBody, readBytes } from './http-body.js';

export { blockKitProblems } from './fake-slack-api-block-kit.js';

/** One Web API call as the fake saw it. The token itself is never recorded, only whether one came. */
export interface SlackApiCall {
  method: string;
  args: Record<string, any>;
  authorized: boolean;
  /** When the call arrived (epoch ms). */
  at: number;
  /** When the call arrived by the fake's clock (`now`, on which Slack stamps messages and counts its minute). */
  slackAt: number;
  /** What the fake answered, when it answered ok (the ts of a posted message, say). */
  answer?: Record<string, unknown>;
}

/** What was POSTed to a response_url. */
export interface SlackResponseCall {
  id: string;
  body: Record<string, any>;
}

/**
 * How a call fails: an HTTP status, a Slack error, the connection dropped before Slack acts on it
 * (`reset`), or Slack acts on it and the answer is lost on the way back (`lostAnswer`: the message
 * is posted, the client sees a reset), or Slack answers after `delayMs`.
 */
type Failure =
  | { status: 429; retryAfter: number }
  | { status: 500 | 502 | 503 }
  | { error: string }
  | { reset: true }
  | { lostAnswer: true }
  | { delayMs: number };

/** A message as Slack keeps it in a channel: what conversations.history and .replies read back. */
export interface SlackStoredMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  /** A thread reply also shown in the channel (reply_broadcast). */
  broadcast?: boolean;
  text: string;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** A file share (files.completeUploadExternal): the files it carries, as history shows them. */
  files?: { id: string; name: string; title?: string }[];
}

/**
 * Answers one method in place of the built-in answers, given the call's arguments and the bearer
 * token (never recorded), e.g. apps.connections.open, which checks which token it was given.
 */
export type Responder = (args: Record<string, any>, token: string) => Record<string, unknown>;

/** A file as the fake received it through files.uploadV2's three steps. */
export interface SlackUpload {
  id: string;
  filename: string;
  /** The length files.getUploadURLExternal announced. */
  length: number;
  bytes: Buffer | null;
  title?: string;
  channel?: string;
  threadTs?: string;
  initialComment?: string;
  completed: boolean;
}

/** Methods the fake answers like Slack does; anything else is `unknown_method` and unexpected. */
const KNOWN = [
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'views.publish',
  'views.open',
  'auth.test',
  'files.getUploadURLExternal',
  'files.completeUploadExternal',
  'conversations.history',
  'conversations.replies',
  'conversations.open',
  'users.list',
  'usergroups.list',
] as const;

/** A person of the workspace, as users.list describes one. */
export interface SlackPerson {
  id: string;
  name: string;
  realName?: string;
  displayName?: string;
  email?: string;
  deleted?: boolean;
}

/** A user group, as usergroups.list describes one with include_users. */
export interface SlackUserGroup {
  id: string;
  handle: string;
  name: string;
  users: string[];
}

/**
 * A Slack Web API on 127.0.0.1 for tests: real HTTP, so the real WebClient and Bolt talk to it.
 * It answers like Slack, rejects what Slack would reject (`invalid_blocks`, `not_authed`), records
 * every call, plays throttles and outages on request, and serves response_url endpoints.
 * A call to a method the test did not `expect` fails `assertNoUnexpectedCalls()`.
 */
export class FakeSlackApi {
  readonly calls: SlackApiCall[] = [];
  readonly responses: SlackResponseCall[] = [];
  /** Files by id, in the order their upload URLs were handed out. */
  readonly uploads = new Map<string, SlackUpload>();
  /** Every message posted, in order, as the channels keep them. */
  readonly messages: SlackStoredMessage[] = [];
  /** Messages that share uploaded files, apart from `messages` (which counts posts); history reads both. */
  readonly fileShares: SlackStoredMessage[] = [];
  /** The workspace's people (users.list, 2 per page) and user groups (usergroups.list). */
  readonly people: SlackPerson[] = [];
  readonly userGroups: SlackUserGroup[] = [];
  private readonly failures = new Map<string, Failure[]>();
  private readonly expected: Set<string>;
  private readonly unexpected: string[] = [];
  private readonly responders = new Map<string, Responder>();
  private seq = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    expected: readonly string[],
    private readonly now: (() => Date) | undefined,
    private readonly history: 'tier3' | 'tier1',
  ) {
    this.expected = new Set(expected);
  }

  /** When each history method was last answered under `tier1` (epoch ms on the fake's clock). */
  private readonly lastRead = new Map<string, number>();

  /**
   * Starts on a random port. `expect` lists the methods this test may call (default: none). With
   * `now`, message timestamps follow that clock, as Slack's follow real time (history reads by time).
   * `history: 'tier1'` plays Slack's limits for distributed apps outside the Marketplace: 15
   * messages a page, cut silently, and one call a minute per method (HTTP 429 with Retry-After).
   */
  static async start(options: { expect?: readonly string[]; now?: () => Date; history?: 'tier3' | 'tier1' } = {}): Promise<FakeSlackApi> {
    let fake: FakeSlackApi | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeSlackApi(server, `http://127.0.0.1:${port}`, options.expect ?? [], options.now, options.history ?? 'tier3');
    return fake;
  }

  /** Base URL for WebClient's `slackApiUrl` / SLACK_API_URL. */
  get apiUrl(): string {
    return `${this.origin}/api/`;
  }

  /** A fresh response_url; what is POSTed there lands in `responses`. */
  responseUrl(id: string = randomUUID()): string {
    return `${this.origin}/response/${id}`;
  }

  expect(...methods: string[]): void {
    methods.forEach((m) => this.expected.add(m));
  }

  /** `method` is answered by `responder` from now on (and is expected). */
  respond(method: string, responder: Responder): void {
    this.responders.set(method, responder);
    this.expect(method);
  }

  /** The next `times` calls of `method` fail this way (HTTP 429 with Retry-After, a 5xx, or a Slack error). */
  failNext(method: string, failure: Failure, times = 1): void {
    const queue = this.failures.get(method) ?? [];
    for (let i = 0; i < times; i++) queue.push(failure);
    this.failures.set(method, queue);
  }

  callsOf(method: string): SlackApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`unexpected Slack API call(s): ${this.unexpected.join(', ')}`);
  }

  /** Fails if a queued failure was never played: the test expected a call that did not happen. */
  assertDone(): void {
    const left = [...this.failures].filter(([, q]) => q.length > 0).map(([m, q]) => `${m} x${q.length}`);
    if (left.length > 0) throw new Error(`queued Slack failures never happened: ${left.join(', ')}`);
  }

  async close(): Promise<void> {
    await closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'POST' && path.startsWith('/upload/'))
      return this.receiveFile(path.slice('/upload/'.length), await uploadedBytes(req), res);
    const raw = await readBody(req);
    const body = parseBody(raw, String(req.headers['content-type'] ?? ''));
    if (req.method === 'POST' && path.startsWith('/response/')) return this.respondUrl(path.slice('/response/'.length), body, res);
    if (req.method !== 'POST' || !path.startsWith('/api/')) return send(res, 404, { ok: false, error: 'not_found' });

    const method = path.slice('/api/'.length);
    const token = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const authorized = token !== '';
    const call: SlackApiCall = { method, args: body, authorized, at: Date.now(), slackAt: (this.now?.() ?? new Date()).getTime() };
    this.calls.push(call);
    if (!this.expected.has(method)) this.unexpected.push(method);

    const failure = this.failures.get(method)?.shift();
    if (failure && 'reset' in failure) return void req.socket.destroy();
    if (failure && 'delayMs' in failure) await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
    if (failure && 'status' in failure) {
      return send(
        res,
        failure.status,
        failure.status === 429 ? { ok: false, error: 'ratelimited' } : 'upstream error',
        failure.status === 429 ? { 'retry-after': String(failure.retryAfter) } : {},
      );
    }
    if (failure && 'error' in failure) return send(res, 200, { ok: false, error: failure.error });
    const throttled = this.tier1Wait(method);
    if (throttled > 0) return send(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(throttled) });
    const responder = this.responders.get(method);
    if (!responder && !(KNOWN as readonly string[]).includes(method)) return send(res, 200, { ok: false, error: 'unknown_method' });
    if (!authorized) return send(res, 200, { ok: false, error: 'not_authed' });
    if (responder) return send(res, 200, responder(body, token));
    const refusal = blockKitRefusal(method, body);
    if (refusal) return send(res, 200, refusal);
    call.answer = this.answer(method, body);
    if (failure && 'lostAnswer' in failure) return void req.socket.destroy();
    return send(res, 200, call.answer);
  }

  /** Seconds a history call must still wait under `tier1` (0: it may go, and the minute starts now). */
  private tier1Wait(method: string): number {
    if (this.history !== 'tier1' || (method !== 'conversations.history' && method !== 'conversations.replies')) return 0;
    const now = (this.now?.() ?? new Date()).getTime();
    const last = this.lastRead.get(method);
    if (last !== undefined && now - last < 60_000) return Math.ceil((60_000 - (now - last)) / 1000);
    this.lastRead.set(method, now);
    return 0;
  }

  /** How many messages carry this text in a channel: more than one is a duplicate. */
  countPosted(predicate: (message: SlackStoredMessage) => boolean): number {
    return this.messages.filter(predicate).length;
  }

  private answer(method: string, args: Record<string, any>): Record<string, unknown> {
    switch (method) {
      case 'chat.postMessage': {
        const ts = this.nextTs();
        const metadata =
          typeof args.metadata === 'object' && args.metadata ? { metadata: args.metadata as SlackStoredMessage['metadata'] } : {};
        this.messages.push({
          channel: String(args.channel),
          ts,
          text: String(args.text ?? ''),
          ...(args.thread_ts ? { threadTs: String(args.thread_ts) } : {}),
          ...(args.thread_ts && (args.reply_broadcast === true || args.reply_broadcast === 'true') ? { broadcast: true } : {}),
          ...metadata,
        });
        return {
          ok: true,
          channel: args.channel,
          ts,
          message: { type: 'message', text: args.text, ts, ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}) },
        };
      }
      case 'conversations.history':
      case 'conversations.replies':
        return this.readBack(method, args);
      case 'conversations.open':
        // The bot's direct-message channel with that person.
        return { ok: true, channel: { id: `D${String(args.users).replace(/^U/, '')}` } };
      case 'chat.update':
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: this.nextTs() };
      case 'files.getUploadURLExternal': {
        const id = `F${String(++this.seq).padStart(8, '0')}`;
        this.uploads.set(id, { id, filename: String(args.filename), length: Number(args.length), bytes: null, completed: false });
        return { ok: true, file_id: id, upload_url: `${this.origin}/upload/${id}` };
      }
      case 'files.completeUploadExternal':
        return this.completeUploads(args);
      case 'users.list':
        return this.peoplePage(args);
      case 'usergroups.list':
        return {
          ok: true,
          usergroups: this.userGroups.map((g) => ({
            id: g.id,
            handle: g.handle,
            name: g.name,
            date_delete: 0,
            ...(args.include_users === true || args.include_users === 'true' ? { users: g.users, user_count: g.users.length } : {}),
          })),
        };
      case 'views.publish':
      case 'views.open':
        return { ok: true, view: { id: `V${String(++this.seq).padStart(8, '0')}`, ...(args.view ?? {}) } };
      default:
        return {
          ok: true,
          url: 'https://fake.slack.test/',
          team: 'Fake',
          user: 'burnrate',
          team_id: 'T0FAKE',
          user_id: 'U0BOT',
          bot_id: 'B0BOT',
        };
    }
  }

  /**
   * conversations.history (top-level messages, newest first) and .replies (a thread, its parent first
   * and the replies oldest first), as Slack answers: between `oldest` and `latest` (each excluded
   * unless `inclusive`), `limit` a page (100 when not given),
   * metadata only with include_all_metadata. Under `tier1` (a distributed app outside the Marketplace)
   * a page holds at most 15 and is cut there silently (no has_more, no cursor), and a second call of
   * the method within a minute of the last is refused with HTTP 429 and Retry-After (see handle).
   */
  private readBack(method: string, args: Record<string, any>): Record<string, unknown> {
    const inclusive = args.inclusive === true || args.inclusive === 'true';
    const oldest = args.oldest === undefined ? -Infinity : Number(args.oldest);
    const latest = args.latest === undefined ? Infinity : Number(args.latest);
    const inWindow = (ts: number) => (inclusive ? ts >= oldest && ts <= latest : ts > oldest && ts < latest);
    const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
    const replies = method === 'conversations.replies';
    const inScope = (m: SlackStoredMessage) =>
      m.channel === String(args.channel) &&
      (replies
        ? m.threadTs === String(args.ts) && inWindow(Number(m.ts))
        : (m.threadTs === undefined || m.broadcast === true) && inWindow(Number(m.ts)));
    const found = [...this.messages, ...this.fileShares].filter(inScope).sort((a, b) => Number(a.ts) - Number(b.ts));
    // Slack always returns a thread's parent first, whatever the window.
    const parent = replies
      ? [...this.messages, ...this.fileShares].filter((m) => m.channel === String(args.channel) && m.ts === String(args.ts))
      : [];
    const all = replies ? [...parent, ...found] : found.reverse();
    const asked = Number(args.limit ?? 100);
    const size = this.history === 'tier1' ? Math.min(asked, 15) : asked;
    const start = Number(args.cursor ?? 0);
    const page = all.slice(start, start + size);
    const cutSilently = this.history === 'tier1';
    const next = !cutSilently && start + size < all.length ? String(start + size) : '';
    return {
      ok: true,
      messages: page.map((m) => ({
        type: 'message',
        ts: m.ts,
        text: m.text,
        ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
        ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
        ...(m.files ? { files: m.files } : {}),
      })),
      has_more: next !== '',
      response_metadata: { next_cursor: next },
    };
  }

  /** users.list, 2 people per page so that tests cross pages; emails as with users:read.email. */
  private peoplePage(args: Record<string, any>): Record<string, unknown> {
    const start = Number(args.cursor ?? 0);
    const next = start + 2 < this.people.length ? String(start + 2) : '';
    return {
      ok: true,
      members: this.people.slice(start, start + 2).map((p) => ({
        id: p.id,
        name: p.name,
        deleted: p.deleted ?? false,
        real_name: p.realName ?? p.name,
        profile: { real_name: p.realName ?? p.name, display_name: p.displayName ?? '', ...(p.email ? { email: p.email } : {}) },
      })),
      response_metadata: { next_cursor: next },
    };
  }

  /** Step 2 of files.uploadV2: the bytes, POSTed to the URL step 1 handed out; its length must match. */
  private receiveFile(id: string, bytes: Buffer, res: ServerResponse): void {
    const upload = this.uploads.get(id);
    if (!upload) return send(res, 404, 'unknown upload');
    if (bytes.length !== upload.length) return send(res, 400, `expected ${upload.length} bytes, got ${bytes.length}`);
    upload.bytes = bytes;
    send(res, 200, `OK - ${bytes.length}`);
  }

  /** Step 3: shares the uploaded files into a channel (and thread); a file never uploaded is an error, as at Slack. */
  private completeUploads(args: Record<string, any>): Record<string, unknown> {
    const files = (typeof args.files === 'string' ? tryJson(args.files) : args.files) as { id: string; title?: string }[];
    if (!Array.isArray(files) || files.length === 0) return { ok: false, error: 'invalid_arguments' };
    for (const file of files) {
      const upload = this.uploads.get(file.id);
      if (!upload || !upload.bytes) return { ok: false, error: 'file_not_found' };
    }
    for (const file of files) {
      const upload = this.uploads.get(file.id)!;
      Object.assign(upload, {
        completed: true,
        title: file.title,
        channel: args.channel_id,
        threadTs: args.thread_ts,
        initialComment: args.initial_comment,
      });
    }
    // Slack shares the files as one message, in the thread when one is named; history reads it back.
    this.fileShares.push({
      channel: String(args.channel_id),
      ts: this.nextTs(),
      text: String(args.initial_comment ?? ''),
      ...(args.thread_ts ? { threadTs: String(args.thread_ts) } : {}),
      files: files.map((f) => ({ id: f.id, name: this.uploads.get(f.id)!.filename, ...(f.title ? { title: f.title } : {}) })),
    });
    return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title })) };
  }

  private respondUrl(id: string, body: Record<string, any>, res: ServerResponse): void {
    this.responses.push({ id, body });
    const problems = Array.isArray(body.blocks) ? blockKitProblems(body.blocks) : [];
    // response_url answers plain text, like Slack: "ok" or an error name with a 4xx.
    if (problems.length > 0) return send(res, 400, 'invalid_blocks');
    send(res, 200, 'ok');
  }

  private nextTs(): string {
    this.seq += 1;
    const seconds = this.now ? Math.floor(this.now().getTime() / 1000) : 1700000000;
    return `${seconds}.${String(this.seq).padStart(6, '0')}`;
  }
}

/**
 * What Slack answers a call whose blocks or view break Block Kit: `invalid_blocks` for a message's
 * blocks, `invalid_arguments` for a view, each with the problems in `errors` and, as Slack adds
 * them, in `response_metadata.messages`.
 */
function blockKitRefusal(method: string, body: Record<string, any>): Record<string, unknown> | null {
  const isView = method === 'views.publish' || method === 'views.open';
  const problems = isView
    ? body.view === undefined
      ? []
      : viewProblems(body.view)
    : Array.isArray(body.blocks)
      ? blockKitProblems(body.blocks)
      : body.blocks === undefined
        ? []
        : ['blocks is not an array'];
  if (problems.length === 0) return null;
  return {
    ok: false,
    error: isView ? 'invalid_arguments' : 'invalid_blocks',
    errors: problems,
    response_metadata: { messages: problems.map((problem) => `[ERROR] ${problem}`) },
  };
}

/** The file of an upload: the WebClient sends it as the one file part of a multipart form; raw bytes are taken as they are. */
async function uploadedBytes(req: IncomingMessage): Promise<Buffer> {
  const bytes = await readBytes(req);
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('multipart/form-data')) return bytes;
  const form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData();
  const file = [...form.values()].find((value): value is File => typeof value !== 'string');
  return file ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0);
}

const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata']);

/** The WebClient sends form fields with objects (blocks, view) as JSON strings; Bolt's respond sends JSON. */
function parseBody(raw: string, contentType: string): Record<string, any> {
  if (!raw) return {};
  if (contentType.startsWith('application/json')) return JSON.parse(raw) as Record<string, any>;
  const form = parseForm(raw);
  const args: Record<string, any> = {};
  for (const [key, value] of Object.entries(form)) {
    const text = Array.isArray(value) ? value[0] : value;
    args[key] = typeof text === 'string' && JSON_FIELDS.has(key) ? tryJson(text) : text;
  }
  return args;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const json = typeof body !== 'string';
  res.writeHead(status, { 'content-type': json ? 'application/json; charset=utf-8' : 'text/plain', ...headers });
  res.end(json ? JSON.stringify(body) : body);
}
