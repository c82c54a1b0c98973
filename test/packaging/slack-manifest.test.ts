import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const manifest = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8'));
const schema = JSON.parse(readFileSync(new URL('../../../shared/data/slack/schemastore_slack-app-manifest.schema.json', import.meta.url), 'utf8'));

describe('Slack app manifest', () => {
  it('is valid against the published manifest schema', () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const ok = validate(manifest);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
  });

  it('declares the slash command and asks for no scope it does not use', () => {
    expect(manifest.features.slash_commands.map((c: { command: string }) => c.command)).toEqual(['/burnrate']);
    expect(manifest.oauth_config.scopes.bot).toEqual(['chat:write', 'commands']);
  });
});
