import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../support/config.js';
import { BurnrateError } from '../../../src/domain/errors.js';
import { prometheusGpu } from '../../../src/providers/prometheus/prometheus-gpu.js';
import { FakeGceMetadata } from '../../fakes/fake-gce-metadata.js';
import { FakePrometheus } from '../../fakes/fake-prometheus.js';

const START = Date.UTC(2026, 10, 2, 7, 0, 0) / 1000;
const RANGE = { start: START, end: START + 3600, stepSeconds: 60 };
const GMP_PATH = '/v1/projects/ml-platform-prod/location/global/prometheus';
const ISSUED_TOKEN = 'ya29.issued-by-the-metadata-server';
const MONITORING_READ = 'https://www.googleapis.com/auth/monitoring.read';

// Application Default Credentials as on GKE with workload identity: no key file, no gcloud login,
// the metadata server (here the fake, through GCE_METADATA_HOST, which google-auth-library honours).
const saved = { ...process.env };
let metadata: FakeGceMetadata;
let gcloudDir: string;
let fake: FakePrometheus | undefined;

beforeAll(async () => {
  metadata = await FakeGceMetadata.start({ token: ISSUED_TOKEN });
  gcloudDir = mkdtempSync(join(tmpdir(), 'burnrate-gcloud-'));
  delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
  delete process.env.METADATA_SERVER_DETECTION;
  process.env.CLOUDSDK_CONFIG = gcloudDir;
  process.env.GCE_METADATA_HOST = metadata.host;
});

afterAll(async () => {
  process.env = saved;
  await metadata.close();
  rmSync(gcloudDir, { recursive: true, force: true });
});

afterEach(async () => {
  fake?.assertNoUnexpectedRequests();
  await fake?.close();
  fake = undefined;
});

function gmpSource(url: string) {
  const config = parseConfigText(`
teams: [{ id: llm }]
sources: []
gpu:
  metrics: [{ type: prometheus, id: gmp-prod, url: "${url}", google: true }]
  inventory: [{ type: ec2, regions: [us-east-1] }]
`);
  return prometheusGpu(new Map()).metrics!(config.gpu.metrics[0]!);
}

describe('Google Cloud Managed Service for Prometheus with Application Default Credentials', () => {
  it('queries the project API with the access token Google issued for monitoring.read, fetched once for every query', async () => {
    fake = await FakePrometheus.start({ token: ISSUED_TOKEN, basePath: GMP_PATH });
    const before = metadata.tokenRequests.length;

    await gmpSource(fake.url).fetch(RANGE);

    expect(fake.requests.length).toBeGreaterThan(1);
    expect(new Set(fake.requests.map((r) => r.path))).toEqual(new Set([`${GMP_PATH}/api/v1/query_range`]));
    expect(new Set(fake.requests.map((r) => r.authorization))).toEqual(new Set([`Bearer ${ISSUED_TOKEN}`]));
    // The library keeps the token until it nears expiry: one request to the metadata server, not one per query.
    expect(metadata.tokenRequests.slice(before)).toEqual([{ scopes: [MONITORING_READ] }]);
  });

  it('names the source and the role to grant, never the token, when the API refuses it', async () => {
    fake = await FakePrometheus.start({ token: 'a-token-for-someone-else', basePath: GMP_PATH });

    const error = await gmpSource(fake.url)
      .fetch(RANGE)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BurnrateError);
    expect((error as BurnrateError).code).toBe('burnrate_prometheus_unauthorized');
    expect((error as BurnrateError).message).toContain(fake.url);
    expect((error as BurnrateError).hint).toContain('roles/monitoring.viewer');
    expect(inspect(error)).not.toContain(ISSUED_TOKEN);
  });

  it('reports a failing token endpoint as missing credentials, sends nothing unauthenticated, and recovers on the next fetch', async () => {
    fake = await FakePrometheus.start({ token: ISSUED_TOKEN, basePath: GMP_PATH });
    const source = gmpSource(fake.url);
    metadata.failTokens();

    const error = await source.fetch(RANGE).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BurnrateError);
    expect((error as BurnrateError).code).toBe('burnrate_prometheus_google_credentials_missing');
    expect(fake.requests).toEqual([]);

    metadata.failTokens(false);
    await source.fetch(RANGE);
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(new Set(fake.requests.map((r) => r.authorization))).toEqual(new Set([`Bearer ${ISSUED_TOKEN}`]));
  });
});

describe('burnrate.yml for a Managed Service for Prometheus source', () => {
  const parse = (source: string) => () =>
    parseConfigText(`
teams: [{ id: llm }]
sources: []
gpu:
  metrics: [${source}]
  inventory: [{ type: ec2, regions: [us-east-1] }]
`);

  it('refuses google with a url that is not a project Prometheus API, saying what to write', () => {
    expect(
      parse(
        '{ type: prometheus, url: "https://monitoring.googleapis.com/v1/projects/p1/location/global/prometheus/api/v1", google: true }',
      ),
    ).toThrow(/https:\/\/monitoring\.googleapis\.com\/v1\/projects\/PROJECT_ID\/location\/global\/prometheus/);
    expect(parse('{ type: prometheus, url: "https://monitoring.googleapis.com/v1/projects/p1/prometheus", google: true }')).toThrow(
      /PROJECT_ID/,
    );
  });

  it('refuses google beside another way to authenticate, and google: false', () => {
    expect(
      parse(`{ type: prometheus, url: "https://monitoring.googleapis.com${GMP_PATH}", google: true, bearerTokenEnv: GMP_TOKEN }`),
    ).toThrow(/one way to authenticate/);
    expect(parse(`{ type: prometheus, url: "https://monitoring.googleapis.com${GMP_PATH}", google: false }`)).toThrow(/google: true/);
  });
});
