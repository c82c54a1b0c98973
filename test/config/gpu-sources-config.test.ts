import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../support/config.js';
import { errorOf } from '../support/error-of.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';

const base = (gpu: string, teams = '- { id: llm }') => `
teams:
  ${teams}
sources: []
gpu:
${gpu}
`;

const valid = base(
  `
  metrics:
    - { type: prometheus, url: "http://prometheus.monitoring:9090/prom", bearerTokenEnv: PROM_TOKEN, timeoutSeconds: 20 }
    - { type: cloudwatch, region: eu-west-1 }
  inventory:
    - { type: ec2, regions: [us-east-1, eu-west-1, us-east-1] }
`,
  '- { id: llm, gpu: { namespaces: [ray-llm, vllm] } }',
);

describe('GPU sources in burnrate.yml', () => {
  it('reads metrics sources, the EC2 inventory and team namespaces, with defaults', () => {
    const config = parseConfigText(valid);
    expect(config.gpu.metrics).toEqual([
      { type: 'prometheus', url: 'http://prometheus.monitoring:9090/prom', bearerTokenEnv: 'PROM_TOKEN', timeoutSeconds: 20 },
      { type: 'cloudwatch', region: 'eu-west-1', namespace: 'CWAgent' },
    ]);
    expect(config.gpu.inventory).toEqual([{ type: 'ec2', regions: ['us-east-1', 'eu-west-1'] }]);
    expect(config.teams[0]!.gpu.namespaces).toEqual(['ray-llm', 'vllm']);
  });

  it.each([
    [
      'a token where the name of its variable belongs',
      base(
        `  metrics: [{ type: prometheus, url: "http://p:9090", bearerTokenEnv: "eyJhbGciOi.JIUzI1NiJ9" }]\n  inventory: [{ type: ec2, regions: [us-east-1] }]`,
      ),
      'gpu.metrics[0].bearerTokenEnv: expected the NAME of the environment variable that holds the token',
    ],
    [
      'credentials in the URL',
      base(`  metrics: [{ type: prometheus, url: "https://user:pw@p:9090" }]\n  inventory: [{ type: ec2, regions: [us-east-1] }]`),
      'gpu.metrics[0].url: expected an http(s) URL without credentials',
    ],
    [
      'a region AWS does not have',
      base(`  metrics: [{ type: cloudwatch, region: mars-north-1 }]\n  inventory: [{ type: ec2, regions: [us-east-1] }]`),
      'gpu.metrics[0].region: expected an AWS region such as us-east-1 or eu-west-1 (got "mars-north-1")',
    ],
    [
      'metrics without an inventory',
      base(`  metrics: [{ type: cloudwatch, region: us-east-1 }]`),
      'gpu.inventory: expected a GPU inventory beside gpu.metrics',
    ],
    [
      'an inventory without metrics',
      base(`  inventory: [{ type: ec2, regions: [us-east-1] }]`),
      'gpu.metrics: expected at least one GPU metrics source beside gpu.inventory',
    ],
    [
      'an unknown source type',
      base(`  metrics: [{ type: datadog }]\n  inventory: [{ type: ec2, regions: [us-east-1] }]`),
      'expected a GPU metrics source with type prometheus, cloudwatch, cloud-monitoring or azure-monitor',
    ],
    [
      'a misspelt key',
      base(`  metrics: [{ type: cloudwatch, region: us-east-1, namespce: X }]\n  inventory: [{ type: ec2, regions: [us-east-1] }]`),
      'gpu.metrics[0].namespce: unknown key (did you mean "namespace"?)',
    ],
    [
      'two sources with one id',
      base(
        `  metrics: [{ type: cloudwatch, region: us-east-1 }, { type: cloudwatch, region: us-east-1 }]\n  inventory: [{ type: ec2, regions: [us-east-1] }]`,
      ),
      'duplicate metrics source id "cloudwatch-us-east-1"',
    ],
    [
      'a namespace two teams claim',
      base('  check: "*/15 * * * *"', '- { id: a, gpu: { namespaces: [ray] } }\n  - { id: b, gpu: { namespaces: [ray] } }'),
      `teams[1].gpu.namespaces[0]: namespace "ray" is already team a's`,
    ],
  ])('refuses %s with a clear error', (_what, text, expected) => {
    const error = errorOf(() => parseConfigText(text));
    expect(error.code).toBe('burnrate_config_invalid');
    expect(error.message).toContain(expected);
  });

  it('names the missing token variable at start, and never shows the token', () => {
    const config = parseConfigText(valid);
    const missing = errorOf(() => buildGpuDeps(config, {}));
    expect(missing.code).toBe('burnrate_prometheus_token_missing');
    expect(missing.message).toContain('PROM_TOKEN');
    const gpu = buildGpuDeps(config, { PROM_TOKEN: 'secret-token-value-123' })!;
    expect(gpu.metrics.map((m) => `${m.type}:${m.id}`)).toEqual(['prometheus:prometheus', 'cloudwatch:cloudwatch-eu-west-1']);
    expect(inspect(gpu.metrics[0], { depth: 6, showHidden: true })).not.toContain('secret-token-value-123');
  });
});
