import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../support/config.js';
import { errorOf } from '../support/error-of.js';

const gpu = (body: string) => `
teams:
  - { id: vision }
sources: []
gpu:
${body}
`;

describe('Compute Engine and Cloud Monitoring in burnrate.yml', () => {
  it('reads a gce inventory and cloud-monitoring metrics, with local SSDs never discarded by default', () => {
    const config = parseConfigText(
      gpu(`  metrics: [{ type: cloud-monitoring, projects: [ml-training-prod] }]
  inventory: [{ type: gce, projects: [ml-training-prod, ml-serving-prod, ml-training-prod] }]`),
    );
    expect(config.gpu.metrics).toEqual([{ type: 'cloud-monitoring', projects: ['ml-training-prod'] }]);
    expect(config.gpu.inventory).toEqual([{ type: 'gce', projects: ['ml-training-prod', 'ml-serving-prod'], discardLocalSsd: false }]);
  });

  it.each([
    [
      'a project number where the id belongs',
      `  metrics: [{ type: cloud-monitoring, projects: [ml-training-prod] }]\n  inventory: [{ type: gce, projects: [123456789012] }]`,
      'expected a project id such as ml-training-prod',
    ],
    [
      'no projects',
      `  metrics: [{ type: cloud-monitoring, projects: [ml-training-prod] }]\n  inventory: [{ type: gce, projects: [] }]`,
      'expected at least one project id',
    ],
    [
      'a zone where projects belong',
      `  metrics: [{ type: cloud-monitoring, projects: [ml-training-prod] }]\n  inventory: [{ type: gce, zone: us-central1-a, projects: [ml-training-prod] }]`,
      'zone',
    ],
    [
      'a discardLocalSsd that is not true or false',
      `  metrics: [{ type: cloud-monitoring, projects: [ml-training-prod] }]\n  inventory: [{ type: gce, projects: [ml-training-prod], discardLocalSsd: "yes" }]`,
      'expected true or false',
    ],
    [
      'an unknown inventory type',
      `  metrics: [{ type: cloud-monitoring, projects: [ml-training-prod] }]\n  inventory: [{ type: gcp, projects: [ml-training-prod] }]`,
      'expected a GPU inventory with type ec2, gce',
    ],
  ])('refuses %s with a clear error', (_what, text, expected) => {
    const error = errorOf(() => parseConfigText(gpu(text)));
    expect(error.code).toBe('burnrate_config_invalid');
    expect(error.message).toContain(expected);
  });
});
