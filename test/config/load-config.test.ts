import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchema, loadConfig, parseConfigText } from '../support/config.js';
import { errorOf } from '../support/error-of.js';

const valid = `
ownership:
  tagKeys: [team, user:team]
teams:
  - id: ml-research
    name: ML Research
    match: [ml-research, research]
    timezone: Europe/Berlin
    slack: { channel: C0123ABCD }
    owners: [U01AAA]
    approvers: [U01BBB]
    budget: { monthly: 50000, currency: USD, thresholds: [80, 50, 100], forecast: true }
sources:
  - { type: focus, paths: [exports/*.parquet] }
  - { type: demo }
`;

describe('configuration', () => {
  it('parses the documented example and fills defaults', () => {
    const config = parseConfigText(valid);
    expect(config.teams[0]?.budget?.thresholds).toEqual([50, 80, 100]);
    expect(config.sources[1]).toEqual({ type: 'demo', seed: 42, days: 90, cluster: false });
    expect(config.schedule.budgetCheck).toBe('08:00');
  });

  it('accepts the shipped burnrate.example.yml', () => {
    const config = parseConfigText(readFileSync(new URL('../../burnrate.example.yml', import.meta.url), 'utf8'));
    expect(config.teams.length).toBeGreaterThan(0);
  });

  it('names the path and the bad value of a wrong type', () => {
    const text = valid.replace('monthly: 50000', 'monthly: "5k"');
    expect(errorOf(() => parseConfigText(text)).message).toContain('teams[0].budget.monthly: expected a positive number, got "5k"');
  });

  it('reports unknown keys with a suggestion', () => {
    const error = errorOf(() => parseConfigText(valid.replace('timezone:', 'timezon:')));
    expect(error.message).toContain('teams[0].timezon: unknown key (did you mean "timezone"?)');
    expect(error.code).toBe('burnrate_config_invalid');
  });

  it('reports bad YAML with its line', () => {
    const error = errorOf(() => parseConfigText('teams:\n  - id: a\n   name: [unclosed\n'));
    expect(error.message).toMatch(/not valid YAML/);
    expect(error.message).toMatch(/line \d+/);
  });

  it('rejects an unknown time zone and a missing team id', () => {
    const text = `teams:\n  - { id: a, timezone: Mars/Olympus }\n  - { name: X }\n`;
    const message = errorOf(() => parseConfigText(text)).message;
    expect(message).toContain('teams[0].timezone: expected an IANA time zone');
    expect(message).toContain('teams[1].id: is required');
  });

  it('takes user ids, user groups and emails for roles, and names an entry that is none of them', () => {
    const ok = parseConfigText(valid.replace('approvers: [U01BBB]', "approvers: ['@ml-leads', S0GROUP, dana@example.com, U01BBB]"));
    expect(ok.teams[0]?.approvers).toEqual(['@ml-leads', 'S0GROUP', 'dana@example.com', 'U01BBB']);
    const message = errorOf(() => parseConfigText(valid.replace('approvers: [U01BBB]', "approvers: ['Dana Smith', '@ml leads']"))).message;
    expect(message).toContain(
      'teams[0].approvers[0]: expected a chat user id (U0123ABCD, an Entra object id), a user group (@ml-training-leads, S0123ABCD or an Entra group object id) or an email',
    );
    expect(message).toContain('teams[0].approvers[1]:');
  });

  it('takes Entra object ids (of people or groups), Teams user ids and mail nicknames, and says how to fix a mangled one', () => {
    const entries = ['0f3e2d1c-aaaa-4bbb-8ccc-0123456789ab', '29:1a2B3c-user', '@ml-training-leads', 'ML.Leads@example.onmicrosoft.com'];
    const ok = parseConfigText(valid.replace('approvers: [U01BBB]', `approvers: [${entries.map((e) => `'${e}'`).join(', ')}]`));
    expect(ok.teams[0]?.approvers).toEqual(entries);
    const bad = ['{0f3e2d1c-aaaa-4bbb-8ccc-0123456789ab}', '0f3e2d1c-aaaa-4bbb-8ccc-0123456789a', '19:3f2a0b@thread.tacv2', "@ml-leads'"];
    const message = errorOf(() =>
      parseConfigText(valid.replace('approvers: [U01BBB]', `approvers: [${bad.map((e) => JSON.stringify(e)).join(', ')}]`)),
    ).message;
    expect(message).toContain('teams[0].approvers[0]: write the Entra object id without braces: 0f3e2d1c-aaaa-4bbb-8ccc-0123456789ab');
    expect(message).toContain(
      'teams[0].approvers[1]: "0f3e2d1c-aaaa-4bbb-8ccc-0123456789a" looks like an Entra object id but is not one: expected 8-4-4-4-12 hex digits',
    );
    expect(message).toContain('teams[0].approvers[2]: "19:3f2a0b@thread.tacv2" is a Teams conversation id, not a person');
    expect(message).toContain('teams[0].approvers[3]: expected a chat user id');
  });

  it('rejects duplicate team ids', () => {
    const message = errorOf(() => parseConfigText('teams:\n  - { id: a }\n  - { id: a }\n')).message;
    expect(message).toContain('teams[1].id: duplicate team id "a" (also teams[0])');
  });

  it('rejects an unknown source type', () => {
    expect(errorOf(() => parseConfigText('sources:\n  - { type: oracle }\n')).message).toContain('sources[0]');
  });

  it('falls back to the demo organisation only when no path is given and no burnrate.yml exists', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'burnrate-config-'));
    expect((await loadConfig(undefined, {}, empty)).path).toBeNull();
    await expect(loadConfig('missing.yml', {}, empty)).rejects.toMatchObject({ code: 'burnrate_config_missing' });
    await expect(loadConfig(undefined, { BURNRATE_CONFIG: 'gone.yml' }, empty)).rejects.toMatchObject({ code: 'burnrate_config_missing' });
    writeFileSync(join(empty, 'burnrate.yml'), valid);
    expect((await loadConfig(undefined, {}, empty)).path).toBe(join(empty, 'burnrate.yml'));
  });

  it('publishes a JSON Schema that accepts valid configs and rejects unknown keys', () => {
    const validate = new Ajv({ strict: false }).compile(configJsonSchema());
    expect(validate(parse(valid))).toBe(true);
    expect(validate(parse(valid.replace('timezone:', 'timezon:')))).toBe(false);
  });
});
