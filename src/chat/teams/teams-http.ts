import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CloudAdapter, Request, Response, TurnContext } from 'botbuilder';
import type { Logger } from 'pino';
import { json, type Route } from '../../http/server.js';

/** Where the Bot Connector posts activities (the Azure Bot's "Messaging endpoint"). */
export const TEAMS_MESSAGES_PATH = '/api/messages';
/** Teams activities are a few KB; a card invoke stays well under this. Anything larger is refused unread. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * `POST /api/messages` on burnrate's own HTTP server. CloudAdapter expects an Express-like request
 * with a parsed body and a response with status/header/send/end; node's own objects are adapted
 * here, so no web framework is needed. The adapter authenticates the request (401 when it fails),
 * runs the turn and writes the answer, including an invoke's response body.
 */
export function teamsMessagesRoute(adapter: CloudAdapter, logic: (context: TurnContext) => Promise<void>, log: Logger): Route {
  return async (req, res) => {
    let body: Record<string, unknown>;
    try {
      body = await readJson(req);
    } catch (error) {
      json(res, (error as BodyError).status ?? 400, { error: (error as Error).message });
      return;
    }
    const request: Request = { body, headers: req.headers, method: req.method ?? 'POST' };
    try {
      await adapter.process(request, expressLike(res), logic);
    } catch (error) {
      log.error({ err: (error as Error).message }, 'teams request failed');
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
    }
  };
}

class BodyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyError(`request body over ${MAX_BODY_BYTES} bytes`, 413);
    chunks.push(chunk);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError('request body is not JSON', 400);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new BodyError('request body is not a JSON object (an activity)', 400);
  return parsed as Record<string, unknown>;
}

/** The four methods CloudAdapter calls, on a plain node response. */
function expressLike(res: ServerResponse): Response {
  let status = 200;
  return {
    socket: res.socket,
    status(code: number) {
      status = code;
    },
    header(name: string, value: unknown) {
      res.setHeader(name, String(value));
    },
    send(body: unknown) {
      if (body === undefined || body === null) return;
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      if (!res.headersSent) res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' });
      res.write(text);
    },
    end() {
      if (!res.headersSent) res.writeHead(status);
      res.end();
    },
  };
}
