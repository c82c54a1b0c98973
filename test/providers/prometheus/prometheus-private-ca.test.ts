import { readFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BurnrateError } from '../../../src/domain/errors.js';
import { fetchTrustingCa } from '../../../src/providers/prometheus/fetch-trusting-ca.js';
import { nodeCpuBusyQuery } from '../../../src/providers/prometheus/node-queries.js';
import { PrometheusHttpClient } from '../../../src/providers/prometheus/prometheus-http.js';
import { readCaFile } from '../../../src/providers/prometheus/read-ca-file.js';
import { FakePrometheus } from '../../fakes/fake-prometheus.js';

// A CA of the tests' own and a certificate it signed for 127.0.0.1 (test/fixtures/tls/README.md says how).
const TLS = new URL('../../fixtures/tls/', import.meta.url);
const CA_FILE = fileURLToPath(new URL('test-ca.pem', TLS));
const WINDOW = { start: 1_793_000_000, end: 1_793_003_600, step: 60 };
const HOST = { instance: '10.0.1.23:9100', cpuBusyCores: () => 3 };

let fake: FakePrometheus | undefined;
let tls: Server | undefined;

afterEach(async () => {
  fake?.assertNoUnexpectedRequests();
  await fake?.close();
  await new Promise<void>((resolve) => (tls ? tls.close(() => resolve()) : resolve()));
  fake = undefined;
  tls = undefined;
});

/** The fake Prometheus behind TLS, as a proxy terminating https in front of Prometheus serves it. */
async function httpsPrometheus(): Promise<string> {
  fake = await FakePrometheus.start({ hosts: [HOST] });
  const upstream = Number(new URL(fake.url).port);
  tls = createServer(
    { key: readFileSync(new URL('localhost-key.pem', TLS)), cert: readFileSync(new URL('localhost-cert.pem', TLS)) },
    (socket) => {
      const to = connect(upstream, '127.0.0.1');
      socket.pipe(to).pipe(socket);
      socket.on('error', () => to.destroy());
      to.on('error', () => socket.destroy());
    },
  );
  await new Promise<void>((resolve) => tls!.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
}

describe('a Prometheus behind a private CA', () => {
  it('is queried over https when the source trusts that CA', async () => {
    const url = await httpsPrometheus();
    const client = new PrometheusHttpClient({ url, fetch: fetchTrustingCa(readCaFile(CA_FILE)) });
    const values: number[] = [];

    await client.queryRange(nodeCpuBusyQuery(60), WINDOW, (_labels, _times, samples, count) => {
      for (let i = 0; i < count; i++) values.push(samples[i]!);
    });

    expect(fake!.requests).toHaveLength(1);
    expect(values.length).toBe(61);
    expect(values.every((v) => v === 3)).toBe(true);
  });

  it('is refused as unverifiable without it, and a bad CA file stops before any request', async () => {
    const url = await httpsPrometheus();
    const error = await new PrometheusHttpClient({ url }).queryRange(nodeCpuBusyQuery(60), WINDOW, () => {}).catch((e: unknown) => e);
    expect((error as BurnrateError).code).toBe('burnrate_prometheus_unreachable');
    expect((error as BurnrateError).message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect((error as BurnrateError).hint).toContain('caFile');
    expect(fake!.requests).toEqual([]);

    expect(() => readCaFile(fileURLToPath(new URL('README.md', TLS)))).toThrow(BurnrateError);
    expect(() => readCaFile('/nonexistent/ca.pem')).toThrow(/ENOENT/);
  });
});
