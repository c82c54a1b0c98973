import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import { demoConfig, demoSettings, withDemoChannels } from '../../../src/providers/demo/demo-config.js';

const PARSED = fileURLToPath(new URL('../../../src/providers/demo/demo-config.json', import.meta.url));

/** The demo organisation as loading its settings through burnrate.yml's schema gives it. */
const parsed = (options: { cluster?: boolean }) => withDemoChannels(configSchema.parse(demoSettings(options)));

describe('the demo organisation', () => {
  it('is kept parsed in demo-config.json: its settings through the schema (`vitest -u` on this file rewrites it)', async () => {
    const text = await format(JSON.stringify(parsed({})), { ...(await resolveConfig(PARSED)), parser: 'json' });
    await expect(text).toMatchFileSnapshot(PARSED);
  });

  it.each([{}, { cluster: false }, { cluster: true }])('demoConfig(%j) is what the schema makes of its settings', (options) => {
    expect(demoConfig(options)).toStrictEqual(parsed(options));
  });

  it('gives each caller a configuration of its own', () => {
    const first = demoConfig();
    first.teams[0]!.name = 'changed';
    first.sources.length = 0;
    expect(demoConfig().teams[0]!.name).toBe('ML Research');
    expect(demoConfig().sources).toHaveLength(1);
  });
});
