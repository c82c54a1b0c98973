import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { RespondArguments } from '@slack/bolt';
import type { Reply } from '../../ports/interaction.js';
import { ephemeralResponse } from './slack-reply.js';

/** Slack answers a response_url POST at once; one that hangs must not hold an answer worker forever. */
const TIMEOUT_MS = 15_000;

// Keep-alive: an answer worker posts many answers to the same host. Idle sockets are dropped after
// 4 s, before a server's usual 5 s keep-alive ends, so a socket is never reused just as it closes.
const AGENTS = {
  'http:': new HttpAgent({ keepAlive: true, timeout: 4_000 }),
  'https:': new HttpsAgent({ keepAlive: true, timeout: 4_000 }),
};

/**
 * A private answer POSTed straight to Slack's response_url, with no Bolt app at hand: how an answer
 * worker replies. The same JSON body Bolt's `respond()` sends, and the same rule: an answer Slack
 * did not accept is an error, for the caller to log. node:http rather than fetch: on the profile,
 * fetch cost about as much CPU per answer as the SQLite queries behind it.
 */
export function responseUrlReply(responseUrl: string): Reply {
  const respond = respondAt(responseUrl);
  return { private: (message) => respond(ephemeralResponse(message)) };
}

/**
 * Bolt's `respond()` for one response_url, without Bolt: a string is sent as `{ text }`, and a body
 * Slack did not accept is an error. What a command taken before Bolt (slash-command-intake.ts) replies with.
 */
export function respondAt(responseUrl: string): (message: string | RespondArguments) => Promise<void> {
  return async (message) => {
    const status = await postJson(responseUrl, JSON.stringify(typeof message === 'string' ? { text: message } : message));
    // The URL itself is a credential of sorts (anyone holding it can post): never in the message.
    if (status < 200 || status >= 300) throw new Error(`response_url answered HTTP ${status}`);
  };
}

function postJson(address: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(address);
    const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : null;
    if (!send) return reject(new Error(`response_url is not an http(s) URL (${url.protocol})`));
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = send(url, { method: 'POST', headers, agent: AGENTS[url.protocol as keyof typeof AGENTS], timeout: TIMEOUT_MS }, (res) => {
      res.resume(); // the body says nothing we use; reading it frees the socket for the next answer
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (error) => reject(reachError(error)));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer'), { code: `timed out after ${TIMEOUT_MS} ms` })));
    req.on('error', (error) => reject(reachError(error)));
    req.end(body);
  });
}

/** The cause (ECONNREFUSED, a timeout) is what an operator needs; the URL stays out of the message. */
function reachError(error: Error & { code?: string }): Error {
  return new Error(`response_url could not be reached: ${error.code ?? error.message}`);
}
