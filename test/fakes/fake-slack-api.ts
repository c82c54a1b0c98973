import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseForm } from 'node:querystring';
import { closeServer, readBody } from './http-body.js';

/** One Web API call as the fake saw it. The token itself is never recorded, only whether one came. */
export interface SlackApiCall {
  method: string;
  args: Record<string, any>;
  authorized: boolean;
  /** What the fake answered, when it answered ok (the ts of a posted message, say). */
  answer?: Record<string, unknown>;
}

/** What was POSTed to a response_url. */
export interface SlackResponseCall {
  id: string;
  body: Record<string, any>;
}

type Failure = { status: 429; retryAfter: number } | { status: 500 | 502 | 503 } | { error: string };

/**
 * Answers one method in place of the built-in answers, given the call's arguments and the bearer
 * token (never recorded), e.g. apps.connections.open, which checks which token it was given.
 */
export type Responder = (args: Record<string, any>, token: string) => Record<string, unknown>;

/** Methods the fake answers like Slack does; anything else is `unknown_method` and unexpected. */
const KNOWN = ['chat.postMessage', 'chat.update', 'chat.postEphemeral', 'views.publish', 'views.open', 'auth.test'] as const;

/**
 * A Slack Web API on 127.0.0.1 for tests: real HTTP, so the real WebClient and Bolt talk to it.
 * It answers like Slack, rejects what Slack would reject (`invalid_blocks`, `not_authed`), records
 * every call, plays throttles and outages on request, and serves response_url endpoints.
 * A call to a method the test did not `expect` fails `assertNoUnexpectedCalls()`.
 */
export class FakeSlackApi {
  readonly calls: SlackApiCall[] = [];
  readonly responses: SlackResponseCall[] = [];
  private readonly failures = new Map<string, Failure[]>();
  private readonly expected: Set<string>;
  private readonly unexpected: string[] = [];
  private readonly responders = new Map<string, Responder>();
  private seq = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    expected: readonly string[],
  ) {
    this.expected = new Set(expected);
  }

  /** Starts on a random port. `expect` lists the methods this test may call (default: none). */
  static async start(options: { expect?: readonly string[] } = {}): Promise<FakeSlackApi> {
    let fake: FakeSlackApi | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeSlackApi(server, `http://127.0.0.1:${port}`, options.expect ?? []);
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
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const body = parseBody(raw, String(req.headers['content-type'] ?? ''));
    if (req.method === 'POST' && path.startsWith('/response/')) return this.respondUrl(path.slice('/response/'.length), body, res);
    if (req.method !== 'POST' || !path.startsWith('/api/')) return send(res, 404, { ok: false, error: 'not_found' });

    const method = path.slice('/api/'.length);
    const token = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const authorized = token !== '';
    const call: SlackApiCall = { method, args: body, authorized };
    this.calls.push(call);
    if (!this.expected.has(method)) this.unexpected.push(method);

    const failure = this.failures.get(method)?.shift();
    if (failure && 'status' in failure) {
      return send(res, failure.status, failure.status === 429 ? { ok: false, error: 'ratelimited' } : 'upstream error', failure.status === 429 ? { 'retry-after': String(failure.retryAfter) } : {});
    }
    if (failure) return send(res, 200, { ok: false, error: failure.error });
    const responder = this.responders.get(method);
    if (!responder && !(KNOWN as readonly string[]).includes(method)) return send(res, 200, { ok: false, error: 'unknown_method' });
    if (!authorized) return send(res, 200, { ok: false, error: 'not_authed' });
    if (responder) return send(res, 200, responder(body, token));
    const problems = Array.isArray(body.blocks) ? blockKitProblems(body.blocks) : body.blocks === undefined ? [] : ['blocks is not an array'];
    if (problems.length > 0) return send(res, 200, { ok: false, error: 'invalid_blocks', errors: problems });
    call.answer = this.answer(method, body);
    return send(res, 200, call.answer);
  }

  private answer(method: string, args: Record<string, any>): Record<string, unknown> {
    switch (method) {
      case 'chat.postMessage': {
        const ts = this.nextTs();
        return { ok: true, channel: args.channel, ts, message: { type: 'message', text: args.text, ts, ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}) } };
      }
      case 'chat.update':
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: this.nextTs() };
      case 'views.publish':
      case 'views.open':
        return { ok: true, view: { id: `V${String(++this.seq).padStart(8, '0')}`, ...(args.view ?? {}) } };
      default:
        return { ok: true, url: 'https://fake.slack.test/', team: 'Fake', user: 'burnrate', team_id: 'T0FAKE', user_id: 'U0BOT', bot_id: 'B0BOT' };
    }
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
    return `1700000000.${String(this.seq).padStart(6, '0')}`;
  }
}

/**
 * Slack's Block Kit limits as a list of problems, never a throw, so the fake can answer
 * `invalid_blocks` the way Slack does and a test can read why.
 */
export function blockKitProblems(blocks: unknown[]): string[] {
  const problems: string[] = [];
  const len = (v: unknown) => (typeof v === 'string' ? v.length : -1);
  if (blocks.length > 50) problems.push(`${blocks.length} blocks, max 50`);
  const blockIds = new Set<string>();
  blocks.forEach((raw, i) => {
    const block = (raw ?? {}) as Record<string, any>;
    const at = `blocks[${i}] (${block.type})`;
    if (typeof block.block_id === 'string') {
      if (blockIds.has(block.block_id)) problems.push(`${at}: duplicate block_id ${block.block_id}`);
      blockIds.add(block.block_id);
    }
    if (block.type === 'context' && !(Array.isArray(block.elements) && block.elements.length >= 1 && block.elements.length <= 10)) problems.push(`${at}: context needs 1-10 elements`);
    if (block.type === 'header' && !(len(block.text?.text) >= 1 && len(block.text?.text) <= 150)) problems.push(`${at}: header text must be 1-150 characters`);
    if (block.type === 'section') {
      if (block.text !== undefined && !(len(block.text?.text) >= 1 && len(block.text?.text) <= 3000)) problems.push(`${at}: section text must be 1-3000 characters`);
      if (block.text === undefined && !Array.isArray(block.fields)) problems.push(`${at}: section needs text or fields`);
      if (Array.isArray(block.fields) && block.fields.length > 10) problems.push(`${at}: more than 10 fields`);
      for (const field of block.fields ?? []) if (!(len(field?.text) >= 1 && len(field?.text) <= 2000)) problems.push(`${at}: field text must be 1-2000 characters`);
    }
    if (block.type === 'actions') {
      const elements: Record<string, any>[] = Array.isArray(block.elements) ? block.elements : [];
      if (elements.length === 0 || elements.length > 25) problems.push(`${at}: actions need 1-25 elements`);
      const ids = new Set<string>();
      for (const element of elements) {
        if (element.type === 'button' && !(len(element.text?.text) >= 1 && len(element.text?.text) <= 75)) problems.push(`${at}: button text must be 1-75 characters`);
        if (element.action_id !== undefined && !(len(element.action_id) >= 1 && len(element.action_id) <= 255)) problems.push(`${at}: action_id must be 1-255 characters`);
        if (element.value !== undefined && len(element.value) > 2000) problems.push(`${at}: value over 2000 characters`);
        if (element.action_id !== undefined && ids.has(element.action_id)) problems.push(`${at}: duplicate action_id ${element.action_id}`);
        ids.add(element.action_id);
      }
    }
  });
  return problems;
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
