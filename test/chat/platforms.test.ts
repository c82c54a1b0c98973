import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CHAT_CHANNELS, CHAT_PLATFORMS, checkChatCanServe, noRemoteChatLine, readChatSettings } from '../../src/chat/platforms.js';
import { configJsonSchema } from '../support/config.js';
import { configSchemaWith, teamSchema } from '../../src/config/schema.js';
import { unownedTeam } from '../../src/config/unowned-team.js';
import { BurnrateError } from '../../src/domain/errors.js';

const SLACK_HTTP = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' };
const ids = (chats: ReturnType<typeof readChatSettings>) => chats.map((chat) => chat.platform.id);
/** burnrate.yml's schema as the loader parses it: with the registry's channel keys. */
const configSchema = configSchemaWith(CHAT_CHANNELS);
/** The keys a team takes in burnrate.yml besides its own settings: a channel on each platform that declares one. */
const CHAT_CHANNEL_KEYS = Object.keys(
  (configJsonSchema() as { properties: { teams: { items: { properties: object } } } }).properties.teams.items.properties,
).filter((key) => !(key in teamSchema.shape));

describe('the chat platforms registry', () => {
  it('lists each platform once, and every burnrate.yml channel key belongs to exactly one platform', () => {
    expect(ids(CHAT_PLATFORMS.map((platform) => ({ platform, settings: null })))).toEqual(['slack', 'msteams', 'terminal', 'console']);
    const keys = CHAT_PLATFORMS.flatMap((platform) => (platform.channel ? [platform.channel.key] : []));
    expect(keys.sort()).toEqual([...CHAT_CHANNEL_KEYS].sort());
  });

  it('turns on the terminal and the console only when no remote platform is configured, the console only under serve', () => {
    const terminal = new PassThrough();
    expect(ids(readChatSettings({}, { host: null, terminal }))).toEqual(['terminal']);
    expect(ids(readChatSettings({}, { host: '127.0.0.1', terminal }))).toEqual(['terminal', 'console']);
    expect(ids(readChatSettings(SLACK_HTTP, { host: '127.0.0.1', terminal }))).toEqual(['slack']);
    expect(ids(readChatSettings({ ...SLACK_HTTP, CONSOLE: 'on' }, { host: '127.0.0.1', terminal }))).toEqual(['slack', 'console']);
    expect(ids(readChatSettings({ ...SLACK_HTTP, BURNRATE_INSECURE_DEV: '1' }, { host: null }))).toEqual(['slack', 'msteams']);
  });

  it('leaves Slack and Teams unread when asked to, so a half configuration does not stop a demo', () => {
    const half = { SLACK_BOT_TOKEN: 'xoxb-1' };
    expect(() => readChatSettings(half, { host: null })).toThrow(BurnrateError);
    expect(ids(readChatSettings(half, { host: null, remote: false }))).toEqual([]);
  });

  it('says how to connect each remote platform, and where messages show meanwhile', () => {
    const none = readChatSettings({}, { host: '127.0.0.1', terminal: new PassThrough() });
    expect(noRemoteChatLine(none)).toBe(
      'chat: none configured (set SLACK_BOT_TOKEN and SLACK_APP_TOKEN for Slack in Socket Mode, or SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET for HTTP mode; MICROSOFT_APP_ID, MICROSOFT_APP_TENANT_ID and a credential for Teams), messages print here and in the console',
    );
    expect(noRemoteChatLine(readChatSettings(SLACK_HTTP, { host: '127.0.0.1' }))).toBeNull();
  });

  it("asks every platform what serve must refuse, configured or not (a team's Teams channel without Teams)", () => {
    const config = configSchema.parse({ teams: [{ id: 'ml', msteams: { channel: '19:abc@thread.tacv2' } }] });
    const error = (() => {
      try {
        checkChatCanServe(readChatSettings({}, { host: '127.0.0.1' }), config, '127.0.0.1');
      } catch (thrown) {
        return thrown as BurnrateError;
      }
      return null;
    })();
    expect(error?.code).toBe('burnrate_teams_no_app_id');
  });

  it('gives the unowned instances a channel on every platform burnrate.yml names for them', () => {
    const config = configSchema.parse({ gpu: { unowned: { slack: { channel: 'C0UNOWNED' }, msteams: { channel: '19:u@thread.tacv2' } } } });
    const team = unownedTeam(config);
    expect(team.slack).toEqual({ channel: 'C0UNOWNED' });
    expect(team.msteams).toEqual({ channel: '19:u@thread.tacv2' });
    expect(configSchema.safeParse({ teams: [{ id: 'ml', slack: { channel: ' ' } }] }).error?.issues[0]?.message).toBe(
      'expected a Slack channel id such as C0123ABCD',
    );
  });

  it('renders a message in each platform dialect', () => {
    const message = { summary: 'Budget at 80%', blocks: [{ type: 'text' as const, text: 'ml-research has used 80% of its budget' }] };
    for (const platform of CHAT_PLATFORMS) expect(JSON.stringify(platform.render(message))).toContain('80%');
  });
});
