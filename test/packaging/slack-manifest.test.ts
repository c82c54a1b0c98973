import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SLACK_EVENTS_PATH } from '../../src/chat/slack/slack-app.js';

const text = readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8');
const manifest = parse(text);
const schema = JSON.parse(readFileSync(new URL('../fixtures/slack/schemastore_slack-app-manifest.schema.json', import.meta.url), 'utf8'));

describe('Slack app manifest', () => {
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  const expectValid = (candidate: unknown) => {
    const ok = validate(candidate);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
  };

  it('is valid against the published manifest schema', () => {
    expectValid(manifest);
  });

  it('is a Socket Mode app as it stands: no request URL for Slack to call or verify', () => {
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(text.split('\n').filter((line) => /^\s*(url|request_url):/.test(line))).toEqual([]);
  });

  it('becomes a valid HTTP-mode app as its comments say: three lines uncommented, Socket Mode off, every URL at our events path', () => {
    const lines = text.split('\n').filter((line) => /# HTTP mode$/.test(line));
    expect(lines).toHaveLength(3);
    const http = parse(
      text.replace(/^(\s*)# (.*?)\s+# HTTP mode$/gm, '$1$2').replace('socket_mode_enabled: true', 'socket_mode_enabled: false'),
    );
    expectValid(http);
    expect(http.settings.socket_mode_enabled).toBe(false);
    const urls = [
      http.features.slash_commands[0].url,
      http.settings.event_subscriptions.request_url,
      http.settings.interactivity.request_url,
    ];
    expect(urls).toEqual(Array(3).fill(`https://burnrate.example.com${SLACK_EVENTS_PATH}`));
  });

  it('declares the slash command and asks for no scope it does not use', () => {
    expect(manifest.features.slash_commands.map((c: { command: string }) => c.command)).toEqual(['/burnrate']);
    expect(manifest.oauth_config.scopes.bot).toEqual([
      'chat:write',
      'commands',
      'files:write',
      'im:write',
      'channels:history',
      'groups:history',
      'users:read',
      'users:read.email',
      'usergroups:read',
    ]);
  });
});
