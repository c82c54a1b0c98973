import { createHmac } from 'node:crypto';
import { blockActionsPayload, slashCommandPayload } from './slack-payloads.js';

/** Requests as Slack sends them over HTTP: the payloads of slack-payloads.ts, form-encoded and signed. */
export const TEST_SIGNING_SECRET = 'test-signing-secret-8f14e45fceea167a';

/** `v0=` + HMAC-SHA256 of `v0:{timestamp}:{body}`, exactly what Slack puts in x-slack-signature. */
export function slackSignature(body: string, secret: string, timestamp: number): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export function signedHeaders(body: string, options: { secret?: string; timestamp?: number } = {}): Record<string, string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return {
    // Bolt compares the content type exactly, as Slack sends it: no charset.
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(body, options.secret ?? TEST_SIGNING_SECRET, timestamp),
  };
}

/** A `/burnrate ...` slash command, form-encoded as Slack POSTs it. */
export function slashCommandBody(fields: Parameters<typeof slashCommandPayload>[0]): string {
  return new URLSearchParams(slashCommandPayload(fields)).toString();
}

/** A button click, sent as form field `payload` holding JSON. */
export function blockActionsBody(fields: Parameters<typeof blockActionsPayload>[0]): string {
  return formPayload(blockActionsPayload(fields));
}

/** Interactive payloads (clicks, modal submissions) arrive as one form field `payload` holding JSON. */
export function formPayload(payload: Record<string, unknown>): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** POSTs a signed body; `tamper` changes the body after signing, `headers` override any header. */
export async function postSigned(
  url: string,
  body: string,
  options: { secret?: string; timestamp?: number; headers?: Record<string, string>; tamper?: (body: string) => string } = {},
): Promise<Response> {
  const headers = { ...signedHeaders(body, options), ...options.headers };
  return fetch(url, { method: 'POST', headers, body: options.tamper ? options.tamper(body) : body });
}
