import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { buildTeamsPackage, teamsManifest } from '../../scripts/package-teams.js';
import { renderTeamsIcon, TEAMS_ICONS } from '../../scripts/teams-icons.js';
import { readZip } from '../support/read-zip.js';

const TEAMS_DIR = fileURLToPath(new URL('../../teams/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(TEAMS_DIR, 'manifest.json'), 'utf8'));
// The published 1.29 schema, copied into the repository (see test/fixtures/teams/SOURCES.md).
const schema = JSON.parse(readFileSync(new URL('../fixtures/teams/MicrosoftTeams.schema.v1.29.json', import.meta.url), 'utf8'));
const APP_ID = '8c2f5d7e-1a2b-4c3d-9e8f-0123456789ab';

/**
 * The schema declares draft-04, which Ajv 8 does not bundle; it uses none of draft-04's own
 * keywords (boolean exclusiveMaximum, root `id`), so it is checked under Ajv's default draft.
 */
function problems(candidate: unknown): unknown[] {
  const { $schema: _draft04, ...rules } = schema;
  const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(rules);
  return validate(candidate) ? [] : (validate.errors ?? []);
}

describe('the Teams app package', () => {
  it('has a manifest valid against the Teams 1.29 schema, as committed and as packaged', () => {
    expect(problems(manifest)).toEqual([]);
    expect(problems(teamsManifest(TEAMS_DIR, APP_ID, '1.2.3'))).toEqual([]);
    expect(manifest.manifestVersion).toBe('1.29');
    // The check bites: a colour name, a missing bot id and an unknown scope are all refused.
    expect(problems({ ...manifest, accentColor: 'orange' })).not.toEqual([]);
    expect(problems({ ...manifest, bots: [{ scopes: ['team'] }] })).not.toEqual([]);
    expect(problems({ ...manifest, bots: [{ ...manifest.bots[0], scopes: ['everyone'] }] })).not.toEqual([]);
  });

  it('lists every /burnrate verb as a bot command, in channels, group chats and personal chat', () => {
    const [bot] = manifest.bots;
    expect(bot.scopes.sort()).toEqual(['groupChat', 'personal', 'team']);
    const [list] = bot.commandLists;
    expect(list.scopes.sort()).toEqual(['groupChat', 'personal', 'team']);
    // Manifest 1.24 and later take 12 commands a list (the schema's maxItems; 1.23 took 10): every verb but those marked menu: false.
    const listed = COMMANDS.filter((c) => c.menu !== false);
    expect(listed.length).toBeLessThanOrEqual(12);
    expect(list.commands.map((c: { title: string }) => c.title)).toEqual(listed.map((c) => c.verb));
    for (const command of listed) {
      const listed = list.commands.find((c: { title: string }) => c.title === command.verb);
      expect(listed.description).toContain(command.example.replace(/^\/burnrate /, ''));
    }
  });

  it('has icons rendered from their SVG sources: 192x192 colour and a 32x32 outline that is white on transparent', () => {
    for (const icon of TEAMS_ICONS) {
      const fresh = renderTeamsIcon(TEAMS_DIR, icon);
      expect([fresh.width, fresh.height]).toEqual([icon.size, icon.size]);
      expect(
        readFileSync(join(TEAMS_DIR, `${icon.name}.png`)).equals(fresh.png),
        `teams/${icon.name}.png is stale: run npm run icons:teams`,
      ).toBe(true);
    }
    const outline = renderTeamsIcon(TEAMS_DIR, { name: 'outline', size: 32 });
    let drawn = 0;
    for (let i = 0; i < outline.pixels.length; i += 4) {
      const [r, g, b, a] = outline.pixels.subarray(i, i + 4);
      if (a === 0) continue;
      drawn += 1;
      // resvg writes premultiplied alpha: white at any opacity has r = g = b = a.
      expect([r, g, b]).toEqual([a, a, a]);
    }
    expect(drawn).toBeGreaterThan(20);
  });

  it('zips the manifest with the app id and version filled in and both icons at the root', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'burnrate-teams-')), 'app.zip');
    const files = await buildTeamsPackage({ teamsDir: TEAMS_DIR, appId: APP_ID, version: '1.2.3', out });
    expect(files).toEqual(['manifest.json', 'color.png', 'outline.png']);
    const zip = readZip(readFileSync(out));
    expect([...zip.keys()]).toEqual(['manifest.json', 'color.png', 'outline.png']);
    const packaged = JSON.parse(zip.get('manifest.json')!.toString('utf8'));
    expect(packaged).toMatchObject({ id: APP_ID, version: '1.2.3', bots: [{ botId: APP_ID }] });
    expect(problems(packaged)).toEqual([]);
    expect(zip.get('color.png')!.equals(readFileSync(join(TEAMS_DIR, 'color.png')))).toBe(true);
  });

  it('refuses an app id that is not a GUID, saying what it should be', () => {
    expect(() => teamsManifest(TEAMS_DIR, 'my-bot', '1.0.0')).toThrow(/MICROSOFT_APP_ID must be the bot's Microsoft App ID, a GUID/);
  });
});
