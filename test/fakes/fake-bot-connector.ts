import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody } from './http-body.js';
import { adaptiveCardProblems } from '../support/platform-limits.js';

/** One Bot Connector call as the fake saw it. The bearer token itself is never recorded. */
export interface ConnectorCall {
  op: 'send' | 'reply' | 'update' | 'create';
  /** The conversation posted to, or the one created (create). */
  conversationId: string;
  /** The activity replied to (reply) or replaced (update). */
  activityId: string | null;
  /** The activity; for create, the ConversationParameters. */
  activity: Record<string, any>;
  /** The id the fake gave the activity (send, reply) or kept (update); the conversation's id (create). */
  id: string;
  authorized: boolean;
}

/** Which requests a queued failure waits for; by default the next one of any kind. */
interface FailureScope {
  op?: ConnectorCall['op'] | 'members';
  conversationId?: string;
}

type Failure = { status: 429; retryAfter: number } | { status: 500 | 502 | 503 } | { status: 403; code: string } | { status: 404 };

/**
 * The Bot Connector REST API (v3) on 127.0.0.1: an activity's `serviceUrl` points here, so the
 * real CloudAdapter and ConnectorClient talk to it. It answers like the connector (201 with the
 * new activity's id; 200 for an update), refuses a card the adaptivecards library cannot parse
 * (400, as Teams refuses malformed cards), records every call, and plays throttles (429 with
 * Retry-After) and outages (5xx) on request. POST /v3/conversations opens a 1:1 chat as Teams does:
 * one chat per person, so asking again for the same member answers with the same conversation id.
 */
export class FakeBotConnector {
  readonly calls: ConnectorCall[] = [];
  /** Every request to a known operation, failed ones included: a client's own retries show here. */
  requests = 0;
  /** The members of every conversation, as GET …/pagedmembers lists them (2 per page, to cross pages). */
  readonly roster: { id: string; name: string; aadObjectId?: string; email?: string; userPrincipalName?: string }[] = [];
  /** Conversations whose roster was read. */
  readonly rosterReads: string[] = [];
  private readonly failures: { failure: Failure; where: FailureScope }[] = [];
  private readonly unexpected: string[] = [];
  private seq = 0;

  private constructor(
    private readonly server: Server,
    readonly serviceUrl: string,
  ) {}

  static async start(): Promise<FakeBotConnector> {
    let fake: FakeBotConnector | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeBotConnector(server, `http://127.0.0.1:${port}/`);
    return fake;
  }

  /** The next `times` calls (of this operation in this conversation, when given) fail this way. */
  failNext(failure: Failure, times = 1, where: FailureScope = {}): void {
    for (let i = 0; i < times; i++) this.failures.push({ failure, where });
  }

  /** The id of the 1:1 chat the fake opens with a member (the same for every request, as in Teams). */
  static personalChatId(memberId: string): string {
    return `a:1personal-${Buffer.from(memberId).toString('base64url')}`;
  }

  /** Adaptive Card content of a recorded call's first attachment. */
  static cardOf(call: ConnectorCall): Record<string, any> {
    const attachment = call.activity.attachments?.[0];
    if (attachment?.contentType !== 'application/vnd.microsoft.card.adaptive')
      throw new Error(`activity has no Adaptive Card: ${JSON.stringify(call.activity).slice(0, 200)}`);
    return attachment.content;
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`unexpected connector call(s): ${this.unexpected.join(', ')}`);
  }

  /** Fails if a queued failure was never played: the test expected a call that did not happen. */
  assertDone(): void {
    if (this.failures.length > 0) throw new Error(`${this.failures.length} queued connector failure(s) never happened`);
  }

  async close(): Promise<void> {
    await closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const members = /^\/v3\/conversations\/([^/]+)\/pagedmembers$/.exec(path);
    if (members && req.method === 'GET')
      return this.pagedMembers(decodeURIComponent(members[1]!), new URL(req.url ?? '/', 'http://x').searchParams, res);
    if (path === '/v3/conversations' && req.method === 'POST') return this.createConversation(raw, req, res);
    const match = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/.exec(path);
    const op = !match ? null : req.method === 'POST' ? (match[2] ? 'reply' : 'send') : req.method === 'PUT' && match[2] ? 'update' : null;
    if (!match || !op) {
      this.unexpected.push(`${req.method} ${path}`);
      return send(res, 404, { error: { code: 'NotFound', message: 'no such operation' } });
    }
    this.requests += 1;
    const failure = this.nextFailure(op, decodeURIComponent(match[1]!));
    if (failure) return this.fail(res, failure);

    let activity: Record<string, any>;
    try {
      activity = JSON.parse(raw) as Record<string, any>;
    } catch {
      return send(res, 400, { error: { code: 'BadSyntax', message: 'body is not JSON' } });
    }
    const problems = cardProblems(activity);
    if (problems.length > 0) return send(res, 400, { error: { code: 'BadArgument', message: problems.join('; ') } });

    const conversationId = decodeURIComponent(match[1]!);
    const activityId = match[2] ? decodeURIComponent(match[2]) : null;
    const id = op === 'update' ? activityId! : `1${String(++this.seq).padStart(12, '0')}`;
    const authorized = typeof req.headers.authorization === 'string' && /^Bearer \S+/.test(req.headers.authorization);
    this.calls.push({ op, conversationId, activityId, activity, id, authorized });
    send(res, op === 'update' ? 200 : 201, { id });
  }

  private createConversation(raw: string, req: IncomingMessage, res: ServerResponse): void {
    this.requests += 1;
    const failure = this.nextFailure('create', null);
    if (failure) return this.fail(res, failure);
    let parameters: Record<string, any>;
    try {
      parameters = JSON.parse(raw) as Record<string, any>;
    } catch {
      return send(res, 400, { error: { code: 'BadSyntax', message: 'body is not JSON' } });
    }
    const members: { id?: unknown }[] = Array.isArray(parameters.members) ? parameters.members : [];
    // Teams opens 1:1 chats only: one member, isGroup false, in a tenant.
    if (parameters.isGroup !== false || members.length !== 1 || typeof members[0]!.id !== 'string' || !parameters.tenantId)
      return send(res, 400, {
        error: { code: 'BadArgument', message: 'a 1:1 conversation needs isGroup false, one member and the tenantId' },
      });
    const id = FakeBotConnector.personalChatId(members[0]!.id as string);
    const authorized = typeof req.headers.authorization === 'string' && /^Bearer \S+/.test(req.headers.authorization);
    this.calls.push({ op: 'create', conversationId: id, activityId: null, activity: parameters, id, authorized });
    send(res, 201, { id });
  }

  private pagedMembers(conversationId: string, query: URLSearchParams, res: ServerResponse): void {
    this.rosterReads.push(conversationId);
    const failure = this.nextFailure('members', conversationId);
    if (failure) return this.fail(res, failure);
    const start = Number(query.get('continuationToken') ?? 0);
    const next = start + 2 < this.roster.length ? String(start + 2) : undefined;
    send(res, 200, { members: this.roster.slice(start, start + 2), ...(next ? { continuationToken: next } : {}) });
  }

  /** The first queued failure meant for this request, taken off the queue. */
  private nextFailure(op: FailureScope['op'], conversationId: string | null): Failure | undefined {
    const at = this.failures.findIndex(
      ({ where }) => (!where.op || where.op === op) && (!where.conversationId || where.conversationId === conversationId),
    );
    return at === -1 ? undefined : this.failures.splice(at, 1)[0]!.failure;
  }

  private fail(res: ServerResponse, failure: Failure): void {
    if (failure.status === 429)
      return send(res, 429, { error: { code: 'TooManyRequests', message: 'throttled' } }, { 'retry-after': String(failure.retryAfter) });
    if (failure.status === 403)
      return send(res, 403, { error: { code: failure.code, message: 'The bot is not part of the conversation roster.' } });
    if (failure.status === 404) return send(res, 404, { error: { code: 'ConversationNotFound', message: 'Conversation not found.' } });
    send(res, failure.status, { error: { code: 'ServiceError', message: 'upstream error' } });
  }
}

/** Every Adaptive Card attachment must parse and validate as a 1.5 card. */
function cardProblems(activity: Record<string, any>): string[] {
  const attachments: Record<string, any>[] = Array.isArray(activity.attachments) ? activity.attachments : [];
  return attachments
    .filter((a) => a.contentType === 'application/vnd.microsoft.card.adaptive')
    .flatMap((a) => adaptiveCardProblems(a.content ?? {}));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
