import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { BurnrateError } from '../../../src/domain/errors.js';
import { bearerTokenFile } from '../../../src/providers/prometheus/bearer-token-file.js';
import { nodeCpuBusyQuery } from '../../../src/providers/prometheus/node-queries.js';
import { PrometheusHttpClient } from '../../../src/providers/prometheus/prometheus-http.js';
import { sigv4Auth } from '../../../src/providers/prometheus/sigv4-auth.js';
import { FakePrometheus, type PrometheusRequest } from '../../fakes/fake-prometheus.js';
import { TEST_AWS_CREDENTIALS } from '../../support/aws-test-env.js';

const WINDOW = { start: 1_793_000_000, end: 1_793_003_600, step: 60 };
// Spaces, parentheses, quotes and brackets: characters a signature's canonical query encodes differently from a form.
const QUERY = nodeCpuBusyQuery(60);

let fake: FakePrometheus | undefined;
let dir: string | undefined;

afterEach(async () => {
  fake?.assertNoUnexpectedRequests();
  await fake?.close();
  fake = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Replaces the token file the way a projected volume does: a new file renamed over the old one. */
function writeToken(path: string, token: string): void {
  writeFileSync(`${path}.new`, `${token}\n`);
  renameSync(`${path}.new`, path);
}

describe('a bearer token file', () => {
  it('is read again when it changes: the query after a rotation carries the new token', async () => {
    fake = await FakePrometheus.start({ token: 'token-before-rotation' });
    dir = mkdtempSync(join(tmpdir(), 'burnrate-token-'));
    const path = join(dir, 'token');
    writeToken(path, 'token-before-rotation');
    const client = new PrometheusHttpClient({ url: fake.url, auth: bearerTokenFile(path) });

    await client.queryRange(QUERY, WINDOW, () => {});
    writeToken(path, 'token-after-rotation');
    fake.setToken('token-after-rotation');
    await client.queryRange(QUERY, WINDOW, () => {});

    expect(fake.requests.map((r) => r.authorization)).toEqual(['Bearer token-before-rotation', 'Bearer token-after-rotation']);
  });

  it('names the file, never the token, when Prometheus refuses it or the file is gone', async () => {
    fake = await FakePrometheus.start({ token: 'the-server-wants-another' });
    dir = mkdtempSync(join(tmpdir(), 'burnrate-token-'));
    const path = join(dir, 'token');
    writeToken(path, 'secret-token-in-file');
    const client = new PrometheusHttpClient({ url: fake.url, auth: bearerTokenFile(path) });

    const refused = await client.queryRange(QUERY, WINDOW, () => {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BurnrateError);
    expect((refused as BurnrateError).code).toBe('burnrate_prometheus_unauthorized');
    expect((refused as BurnrateError).hint).toContain(path);
    expect(inspect(refused)).not.toContain('secret-token-in-file');

    rmSync(path);
    const missing = await client.queryRange(QUERY, WINDOW, () => {}).catch((e: unknown) => e);
    expect((missing as BurnrateError).code).toBe('burnrate_prometheus_token_file_unreadable');
    expect((missing as BurnrateError).message).toContain('ENOENT');
    expect(inspect(missing)).not.toContain('secret-token-in-file');
  });
});

describe('SigV4 for Amazon Managed Service for Prometheus', () => {
  it('signs each query for the service aps in the region, as a signature recomputed by hand from what the server received', async () => {
    fake = await FakePrometheus.start();
    const client = new PrometheusHttpClient({
      url: fake.url,
      auth: sigv4Auth({ region: 'eu-west-1', credentials: async () => TEST_AWS_CREDENTIALS }),
    });

    await client.queryRange(QUERY, WINDOW, () => {});

    const request = fake.requests[0]!;
    const auth =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/eu-west-1\/aps\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        request.authorization ?? '',
      );
    expect(auth, request.authorization).not.toBeNull();
    const [, keyId, day, signedHeaders, signature] = auth!;
    expect(keyId).toBe(TEST_AWS_CREDENTIALS.accessKeyId);
    expect(signedHeaders!.split(';')).toEqual(expect.arrayContaining(['host', 'x-amz-date']));
    expect(request.rawQuery).not.toContain('+');
    expect(signature).toBe(expectedSignature(request, signedHeaders!, day!));
  });

  it('says which credentials are missing when the chain has none, without sending anything', async () => {
    fake = await FakePrometheus.start();
    const client = new PrometheusHttpClient({
      url: fake.url,
      auth: sigv4Auth({
        region: 'us-east-1',
        credentials: async () => {
          throw new Error('Could not load credentials from any providers');
        },
      }),
    });
    const error = await client.queryRange(QUERY, WINDOW, () => {}).catch((e: unknown) => e);
    expect((error as BurnrateError).code).toBe('burnrate_prometheus_aws_credentials_missing');
    expect(fake.requests).toEqual([]);
  });
});

/** AWS Signature Version 4 written out from its specification over the request as received. */
function expectedSignature(request: PrometheusRequest, signedHeaders: string, day: string): string {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = request.rawQuery
    .split('&')
    .map((pair) => pair.split('=').map((part) => encode(decodeURIComponent(part))) as [string, string])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const headers = signedHeaders
    .split(';')
    .map((name) => `${name}:${String(request.headers[name]).trim()}\n`)
    .join('');
  const amzDate = String(request.headers['x-amz-date']);
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? sha256(''));
  const canonical = [request.method, request.path, query, headers, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/eu-west-1/aps/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  let key: Buffer | string = `AWS4${TEST_AWS_CREDENTIALS.secretAccessKey}`;
  for (const part of [day, 'eu-west-1', 'aps', 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}
