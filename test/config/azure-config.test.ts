import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../support/config.js';
import { errorOf } from '../support/error-of.js';

const gpu = (inventory: string) => `
teams:
  - { id: vision }
sources: []
gpu:
  metrics: [{ type: prometheus, url: http://prometheus.monitoring:9090 }]
  inventory: [${inventory}]
`;

describe('Azure VMs in burnrate.yml', () => {
  it('reads an azure inventory: subscription ids in lower case, each once', () => {
    const config = parseConfigText(
      gpu(
        `{ type: azure, subscriptions: [0B3C6A1E-5D2F-4E7A-9C81-2F6D4B8E0A17, 0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17, 6f1d2c84-93ab-4e05-b7d2-5a0c9e3f1b64] }`,
      ),
    );
    expect(config.gpu.inventory).toEqual([
      { type: 'azure', subscriptions: ['0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17', '6f1d2c84-93ab-4e05-b7d2-5a0c9e3f1b64'] },
    ]);
  });

  it.each([
    ['a subscription name where its id belongs', `{ type: azure, subscriptions: [ml-training] }`, 'not its display name'],
    ['no subscriptions', `{ type: azure, subscriptions: [] }`, 'expected at least one subscription id'],
    ['a secret in the file', `{ type: azure, subscriptions: [0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17], clientSecret: abc }`, 'clientSecret'],
    ['an unknown inventory type', `{ type: azure-vm, subscriptions: [0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17] }`, 'azure'],
  ])('refuses %s with a clear error', (_what, inventory, expected) => {
    expect(errorOf(() => parseConfigText(gpu(inventory))).message).toContain(expected);
  });
});

const metrics = (source: string) => `
teams:
  - { id: vision }
sources: []
gpu:
  metrics: [${source}]
  inventory: [{ type: azure, subscriptions: [0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17] }]
`;

describe('Azure Monitor GPU metrics in burnrate.yml', () => {
  it("reads an azure-monitor source: subscription ids in lower case, Telegraf's nvidia_smi namespace by default", () => {
    const config = parseConfigText(metrics(`{ type: azure-monitor, subscriptions: [0B3C6A1E-5D2F-4E7A-9C81-2F6D4B8E0A17] }`));
    expect(config.gpu.metrics).toEqual([
      { type: 'azure-monitor', subscriptions: ['0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17'], namespace: 'Telegraf/nvidia_smi' },
    ]);
  });

  it.each([
    ['a subscription name where its id belongs', `{ type: azure-monitor, subscriptions: [ml-training] }`, 'not its display name'],
    ['no subscriptions', `{ type: azure-monitor, subscriptions: [] }`, 'expected at least one subscription id'],
    [
      'an empty namespace',
      `{ type: azure-monitor, subscriptions: [0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17], namespace: '' }`,
      'expected a metrics namespace such as Telegraf/nvidia_smi',
    ],
  ])('refuses %s with a clear error', (_what, source, expected) => {
    expect(errorOf(() => parseConfigText(metrics(source))).message).toContain(expected);
  });
});
