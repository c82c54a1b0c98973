import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../support/config.js';
import { prometheusGpu } from '../../../src/providers/prometheus/prometheus-gpu.js';
import { FakePrometheus } from '../../fakes/fake-prometheus.js';

const START = Date.UTC(2026, 10, 2, 7, 0, 0) / 1000;

let fake: FakePrometheus | undefined;
let dir: string | undefined;

afterEach(async () => {
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  fake = undefined;
  dir = undefined;
});

describe('a Prometheus source built from burnrate.yml', () => {
  it('sends the token of its bearerTokenFile on every query', async () => {
    fake = await FakePrometheus.start({ token: 'projected-token-1' });
    dir = mkdtempSync(join(tmpdir(), 'burnrate-token-'));
    const path = join(dir, 'token');
    writeFileSync(path, 'projected-token-1\n');
    const config = parseConfigText(`
teams: [{ id: llm }]
sources: []
gpu:
  metrics: [{ type: prometheus, url: "${fake.url}", bearerTokenFile: "${path}" }]
  inventory: [{ type: ec2, regions: [us-east-1] }]
`);

    await prometheusGpu(new Map()).metrics!(config.gpu.metrics[0]!).fetch({ start: START, end: START + 3600, stepSeconds: 60 });

    expect(fake.requests.length).toBeGreaterThan(0);
    expect(new Set(fake.requests.map((r) => r.authorization))).toEqual(new Set(['Bearer projected-token-1']));
  });
});
