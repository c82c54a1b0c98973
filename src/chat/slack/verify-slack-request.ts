import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Slack's own limit: a request whose timestamp is further than this from now is refused. */
export const SLACK_REQUEST_TOLERANCE_MS = 5 * 60_000;

const SIGNATURE = /^v0=[0-9a-f]{64}$/;
const TIMESTAMP = /^\d{1,12}$/;

export type Verdict = { ok: true } | { ok: false; reason: string };

/**
 * Checks that a request comes from Slack and is fresh, before anything reads its body:
 * `x-slack-signature` must be `v0=` + HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the signing
 * secret, and `x-slack-request-timestamp` within 5 minutes of `nowMs` in either direction.
 * Slack's docs ask only for stale ones to be refused; a timestamp far ahead is refused too, or a
 * captured request signed with it could be replayed for as long as it stays "fresh".
 * The HMAC covers the raw bytes, exactly as Slack signed them (no text decoding first).
 */
export function verifySlackRequest(headers: IncomingHttpHeaders, raw: Buffer, signingSecret: string, nowMs: number): Verdict {
  const signature = headers['x-slack-signature'];
  const timestamp = headers['x-slack-request-timestamp'];
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return { ok: false, reason: 'missing or malformed x-slack-signature' };
  if (typeof timestamp !== 'string' || !TIMESTAMP.test(timestamp))
    return { ok: false, reason: 'missing or malformed x-slack-request-timestamp' };
  if (!signingSecret) return { ok: false, reason: 'no signing secret configured' };

  const expected = createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(raw).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature.slice(3), 'hex'))) return { ok: false, reason: 'signature mismatch' };

  // Checked after the signature, so an unsigned caller learns nothing about our clock.
  if (Math.abs(nowMs - Number(timestamp) * 1000) > SLACK_REQUEST_TOLERANCE_MS) {
    return { ok: false, reason: 'x-slack-request-timestamp is more than 5 minutes from now' };
  }
  return { ok: true };
}
