import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConsoleChat } from './console-chat.js';
import { SAFE_HEADERS } from './console-http.js';

/** Idle proxies and browsers drop a silent stream; a comment line this often keeps it open. */
const HEARTBEAT_MS = 25_000;

/**
 * Live updates by server-sent events: every console write (an alert from the scheduler, an edit
 * after a click, a thread reply) is announced as `event: change` with its channel and id. The
 * page then fetches the channel again, so the event carries no message content at all.
 * EventSource reconnects by itself after a restart; `retry` tells it how soon.
 */
export function streamConsoleEvents(chat: ConsoleChat, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, {
    ...SAFE_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write('retry: 2000\n\n');
  const unsubscribe = chat.subscribe((change) => {
    res.write(`event: change\ndata: ${JSON.stringify(change)}\n\n`);
  });
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const stop = () => {
    clearInterval(heartbeat);
    unsubscribe();
  };
  req.on('close', stop);
  res.on('error', stop);
}
