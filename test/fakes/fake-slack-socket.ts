import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { waitFor } from '../support/wait-for.js';
import type { FakeSlackApi } from './fake-slack-api.js';

/** What Slack puts around every payload it sends over the socket. */
export interface Envelope {
  envelope_id: string;
  type: 'slash_commands' | 'interactive' | 'events_api';
  payload: Record<string, unknown>;
  accepts_response_payload: boolean;
  /** events_api only: 0 on the first delivery, then 1, 2, ... */
  retry_attempt?: number;
  retry_reason?: string;
}

/** An acknowledgement the app sent back, and how long after the delivery it came. */
export interface SocketAck {
  envelopeId: string;
  /** Absent when the app acked with `{ envelope_id }` alone. */
  payload?: Record<string, unknown>;
  /** Which connection (1 for the first) carried it. */
  connection: number;
  ms: number;
}

type DisconnectReason = 'refresh_requested' | 'warning' | 'link_disabled';

const APP_ID = 'A0BURNRATE';

/**
 * Slack's side of Socket Mode on 127.0.0.1, for tests: it answers apps.connections.open on the
 * fake Web API (only for the configured app-level token, as Slack does), accepts each one-time
 * ticket once on its WebSocket server, says `hello`, delivers envelopes, records the app's acks
 * by envelope_id, asks the app to reconnect (`disconnect`) and redelivers unacknowledged events
 * with a higher `retry_attempt`, so the real @slack/socket-mode client inside Bolt can be driven.
 */
export class FakeSlackSocket {
  readonly envelopes: Envelope[] = [];
  readonly acks: SocketAck[] = [];
  /** Every message the app sent that was not an ack (there should be none). */
  readonly stray: unknown[] = [];
  private readonly tickets = new Set<string>();
  private readonly sockets: WebSocket[] = [];
  private readonly sentAt = new Map<string, { at: number }>();

  private constructor(
    private readonly server: Server,
    private readonly wss: WebSocketServer,
    private readonly origin: string,
  ) {}

  /** Starts the socket server and teaches `api` to open connections for `appToken`. */
  static async start(api: FakeSlackApi, options: { appToken: string }): Promise<FakeSlackSocket> {
    const wss = new WebSocketServer({ noServer: true });
    const server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const fake = new FakeSlackSocket(server, wss, `ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('upgrade', (req, socket, head) => fake.upgrade(req.url ?? '/', socket, head, req));
    api.respond('apps.connections.open', (_args, token) => fake.open(token, options.appToken));
    return fake;
  }

  /** Connections opened so far (each got its `hello`). */
  get connections(): number {
    return this.sockets.length;
  }

  /** Connections still open. */
  get openConnections(): number {
    return this.sockets.filter((s) => s.readyState === s.OPEN).length;
  }

  /** A `/burnrate` invocation, as Slack sends it over the socket. */
  slashCommand(payload: Record<string, unknown>): string {
    return this.deliver({ type: 'slash_commands', payload, accepts_response_payload: true });
  }

  /** A block_actions or view_submission payload. */
  interactive(payload: Record<string, unknown>): string {
    return this.deliver({ type: 'interactive', payload, accepts_response_payload: true });
  }

  /** An Events API event_callback (e.g. app_home_opened), first delivery. */
  event(callback: Record<string, unknown>): string {
    return this.deliver({ type: 'events_api', payload: callback, accepts_response_payload: false, retry_attempt: 0, retry_reason: '' });
  }

  /**
   * Slack's redelivery of an event it saw no ack for: the same payload in a new envelope, one
   * retry_attempt higher, with the reason (`timeout` when the ack did not come in time).
   */
  redeliver(envelopeId: string, reason = 'timeout'): string {
    const first = this.envelopes.find((e) => e.envelope_id === envelopeId);
    if (first?.type !== 'events_api') throw new Error(`only events are redelivered; ${envelopeId} is ${first?.type ?? 'unknown'}`);
    const attempts = this.envelopes.filter((e) => e.payload === first.payload).length;
    return this.deliver({ ...first, retry_attempt: attempts, retry_reason: reason });
  }

  /** Sends an envelope on the newest open connection (Slack may pick any) and returns its id. */
  deliver(envelope: Omit<Envelope, 'envelope_id'>): string {
    const socket = this.newest();
    const full: Envelope = { envelope_id: randomUUID(), ...envelope };
    this.envelopes.push(full);
    this.sentAt.set(full.envelope_id, { at: Date.now() });
    socket.send(JSON.stringify(full));
    return full.envelope_id;
  }

  /**
   * Sends an envelope already sent, unchanged, on connection `connection` (1 for the first opened):
   * what the app sees when Slack hands an envelope to another of its connections (another replica),
   * as after a connection dropped before its ack.
   */
  resendOn(envelopeId: string, connection: number): void {
    const envelope = this.envelopes.find((e) => e.envelope_id === envelopeId);
    const socket = this.sockets[connection - 1];
    if (!envelope || socket?.readyState !== socket?.OPEN) throw new Error(`cannot resend ${envelopeId} on connection ${connection}`);
    socket!.send(JSON.stringify(envelope));
  }

  /**
   * Asks the app to reconnect, as Slack does before recycling a connection. After
   * `refresh_requested` Slack closes the connection itself if the app has not within `closeAfterMs`.
   */
  disconnect(reason: DisconnectReason = 'refresh_requested', closeAfterMs = 1_000): void {
    const socket = this.newest();
    socket.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-fake' } }));
    if (reason !== 'warning') setTimeout(() => socket.readyState === socket.OPEN && socket.close(1000), closeAfterMs).unref();
  }

  ackOf(envelopeId: string): SocketAck | undefined {
    return this.acks.find((a) => a.envelopeId === envelopeId);
  }

  /** Resolves with the ack of `envelopeId`, or fails after `timeoutMs`. */
  async waitForAck(envelopeId: string, timeoutMs = 3_000): Promise<SocketAck> {
    await waitFor(() => this.ackOf(envelopeId) !== undefined, `the ack of ${envelopeId}`, timeoutMs);
    return this.ackOf(envelopeId)!;
  }

  /** Resolves once `n` connections have been opened and the newest is open. */
  async waitForConnections(n: number, timeoutMs = 10_000): Promise<void> {
    await waitFor(() => this.sockets.length >= n && this.sockets[n - 1]?.readyState === 1, `connection #${n}`, timeoutMs);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** apps.connections.open: only an app-level token opens a connection, as at Slack. */
  private open(token: string, appToken: string): Record<string, unknown> {
    if (/^xox[a-z]-/.test(token)) return { ok: false, error: 'not_allowed_token_type' };
    if (token !== appToken) return { ok: false, error: 'invalid_auth' };
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return { ok: true, url: `${this.origin}/link/?ticket=${ticket}&app_id=${APP_ID}` };
  }

  /** A ticket opens one connection once; anything else is refused before the WebSocket handshake. */
  private upgrade(url: string, socket: Duplex, head: Buffer, req: Parameters<WebSocketServer['handleUpgrade']>[0]): void {
    const parsed = new URL(url, 'http://127.0.0.1');
    const ticket = parsed.searchParams.get('ticket') ?? '';
    if (parsed.pathname !== '/link/' || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws));
  }

  private connected(ws: WebSocket): void {
    this.sockets.push(ws);
    const connection = this.sockets.length;
    ws.on('message', (data) => this.received(String(data), connection));
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.openConnections,
        debug_info: { host: 'applink-fake', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: APP_ID },
      }),
    );
  }

  private received(text: string, connection: number): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      this.stray.push(text);
      return;
    }
    const id = message.envelope_id;
    if (typeof id !== 'string') {
      this.stray.push(message);
      return;
    }
    const sent = this.sentAt.get(id);
    this.acks.push({
      envelopeId: id,
      ...('payload' in message ? { payload: message.payload as Record<string, unknown> } : {}),
      connection,
      ms: sent ? Date.now() - sent.at : Number.NaN,
    });
  }

  private newest(): WebSocket {
    const socket = [...this.sockets].reverse().find((s) => s.readyState === s.OPEN);
    if (!socket) throw new Error('no open Socket Mode connection: the app is not connected');
    return socket;
  }
}
