import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopback } from '../../http/loopback.js';
import { tokenMatches, type ConsoleSettings } from './console-settings.js';

/** Commands and clicks are a few hundred bytes; anything much larger is not from the console page. */
export const MAX_BODY_BYTES = 16 * 1024;

const COOKIE = 'burnrate_console';

/** A request the console refuses, with the status and the sentence the caller sees. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}

/** Headers on every console answer: nothing cached, sniffed, framed or leaked through Referer. */
export const SAFE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SAFE_HEADERS, 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * Reads a JSON body. Requiring the JSON content type is half of the CSRF defence: a cross-site
 * form cannot send it, and a cross-site fetch that sets it needs a CORS preflight we never grant.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    throw new HttpProblem(415, 'send the request as JSON with content-type: application/json');
  }
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new HttpProblem(413, `the request body is over ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpProblem(413, `the request body is over ${limit} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new HttpProblem(400, `the request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * May this request use the console? Three checks, each against a different attack:
 *   - on loopback, the Host header must name loopback too: a web page whose DNS name was
 *     rebound to 127.0.0.1 would otherwise be same-origin with the console;
 *   - with a token, the request must carry it (cookie or bearer header);
 *   - a POST from a browser must come from the console's own origin.
 */
export function checkAccess(req: IncomingMessage, settings: ConsoleSettings): void {
  checkHost(req, settings);
  const host = req.headers.host ?? '';
  if (settings.token !== null && !hasToken(req, settings.token)) {
    throw new HttpProblem(
      401,
      'this console needs its token: open it once with ?token=<CONSOLE_TOKEN>, or send Authorization: Bearer <CONSOLE_TOKEN>',
    );
  }
  const origin = req.headers.origin;
  if (req.method === 'POST' && origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`) {
    throw new HttpProblem(403, `requests from ${origin} are not accepted; use the console page itself`);
  }
}

/** The first check alone, for the page's `?token=` exchange that comes before the token is known. */
export function checkHost(req: IncomingMessage, settings: ConsoleSettings): void {
  const host = req.headers.host ?? '';
  if (settings.loopback && !isLoopback(hostName(host))) {
    throw new HttpProblem(403, `this console answers on loopback addresses only (http://127.0.0.1), not ${host || 'an unnamed host'}`);
  }
}

function hasToken(req: IncomingMessage, token: string): boolean {
  const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer !== undefined) return tokenMatches(bearer.trim(), token);
  return tokenMatches(readCookie(req, COOKIE), cookieValue(token));
}

/** The cookie holds a digest of the token, so the browser's cookie store never holds the token itself. */
function cookieValue(token: string): string {
  return createHash('sha256').update(`burnrate-console:${token}`).digest('hex');
}

/** The session cookie set after a correct `?token=`: script cannot read it, other sites cannot send it. */
export function tokenCookie(token: string, req: IncomingMessage): string {
  const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
  return `${COOKIE}=${cookieValue(token)}; Path=/; HttpOnly; SameSite=Strict${secure}`;
}

function readCookie(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

/** `127.0.0.1:3000` → `127.0.0.1`, `[::1]:3000` → `::1`. */
function hostName(host: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(host);
  return bracketed?.[1] ?? host.replace(/:\d+$/, '');
}
