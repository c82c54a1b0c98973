import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../support/config.js';
import { errorOf } from '../support/error-of.js';

const gpu = (body: string) => `
teams:
  - { id: research }
sources: []
gpu:
${body}
`;

describe('SageMaker Studio in burnrate.yml', () => {
  it('reads a sagemaker-studio inventory, which needs no GPU metrics (Studio publishes none)', () => {
    const config = parseConfigText(
      gpu(`  inventory: [{ type: sagemaker-studio, regions: [us-east-1, us-east-1], domains: [d-abcd1234efgh] }]`),
    );
    expect(config.gpu.metrics).toEqual([]);
    expect(config.gpu.inventory).toEqual([{ type: 'sagemaker-studio', regions: ['us-east-1'], domains: ['d-abcd1234efgh'] }]);
  });

  it('still asks for metrics beside an inventory that has them (ec2)', () => {
    const error = errorOf(() =>
      parseConfigText(gpu(`  inventory: [{ type: sagemaker-studio, regions: [us-east-1] }, { type: ec2, regions: [us-east-1] }]`)),
    );
    expect(error.message).toContain('expected at least one GPU metrics source beside gpu.inventory');
  });

  it.each([
    [
      'a domain name where its id belongs',
      `  inventory: [{ type: sagemaker-studio, regions: [us-east-1], domains: [ml-studio] }]`,
      'expected a SageMaker domain id such as d-abcd1234efgh',
    ],
    ['no regions', `  inventory: [{ type: sagemaker-studio, regions: [] }]`, 'expected at least one region'],
    [
      'a region that is not one',
      `  inventory: [{ type: sagemaker-studio, regions: [useast1] }]`,
      'expected an AWS region such as us-east-1',
    ],
    [
      'an empty domains list',
      `  inventory: [{ type: sagemaker-studio, regions: [us-east-1], domains: [] }]`,
      'or no domains key for every domain',
    ],
  ])('refuses %s with a clear error', (_what, text, expected) => {
    const error = errorOf(() => parseConfigText(gpu(text)));
    expect(error.message).toContain(expected);
  });
});
