import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { FetchFn } from './prometheus-http.js';

/**
 * A GET-only fetch over node:https that trusts `ca` (PEM, one or more certificates) beside the
 * system's roots, for a Prometheus behind a private CA. Node's global fetch takes no CA of its own
 * but the process-wide NODE_EXTRA_CA_CERTS, which would change every other connection too.
 */
export function fetchTrustingCa(ca: string): FetchFn {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      const sent = request(url, { method: 'GET', headers, ca: [...rootCertificates, ca], signal: init?.signal ?? undefined }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500 })));
      });
      // The same shape as fetch's failures (TypeError with the cause), so error messages read alike.
      sent.on('error', (error) => reject(error.name === 'AbortError' ? error : new TypeError('fetch failed', { cause: error })));
      sent.end();
    });
}
