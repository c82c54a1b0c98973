import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAT_CHANNELS } from '../../src/chat/platforms.js';
import { parseConfigText } from '../../src/config/parse-config.js';
import {
  loadValidatedConfig,
  VALIDATED_CONFIG_FILE,
  validationStamp,
  type ValidationStamp,
} from '../../src/config/validated-config-cache.js';
import { caughtBurnrateError } from '../support/aws-test-env.js';
import { errorOf } from '../support/error-of.js';

const EXAMPLE = readFileSync(new URL('../../burnrate.example.yml', import.meta.url), 'utf8');
const STAMP: ValidationStamp = { version: '1.0.0', build: '1:1', node: 'v22.0.0' };

/** A project folder with burnrate.yml and the database's folder beside it (as any earlier command leaves it). */
function project(text = EXAMPLE): { file: string; dir: string; entry: string } {
  const root = mkdtempSync(join(tmpdir(), 'burnrate-validated-'));
  const file = join(root, 'burnrate.yml');
  writeFileSync(file, text);
  const dir = join(root, 'data');
  mkdirSync(dir);
  return { file, dir, entry: join(dir, VALIDATED_CONFIG_FILE) };
}

/** Changes the kept configuration's first team id, its key left as it is: a later read that returns it read the entry. */
function tamper(entry: string): void {
  const kept = JSON.parse(readFileSync(entry, 'utf8')) as { key: string; config: { teams: { id: string }[] } };
  kept.config.teams[0]!.id = 'from-the-entry';
  writeFileSync(entry, JSON.stringify(kept));
}

const firstTeam = async (file: string, dir: string, stamp = STAMP, channels = CHAT_CHANNELS) =>
  (await loadValidatedConfig(file, channels, dir, stamp)).teams[0]?.id;

describe('burnrate.yml validated once per content', () => {
  it('returns what validating the file returns, first validated and then read back from the kept entry', async () => {
    const { file, dir, entry } = project();
    const validated = parseConfigText(EXAMPLE, CHAT_CHANNELS, file);
    expect(await loadValidatedConfig(file, CHAT_CHANNELS, dir, STAMP)).toStrictEqual(validated);
    expect(existsSync(entry)).toBe(true);
    // Readable by its owner alone.
    expect(statSync(entry).mode & 0o077).toBe(0);
    expect(await loadValidatedConfig(file, CHAT_CHANNELS, dir, STAMP)).toStrictEqual(validated);
  });

  it('serves the kept entry while the file, burnrate, its build, Node and the chat platforms are unchanged', async () => {
    const { file, dir, entry } = project();
    await firstTeam(file, dir);
    tamper(entry);
    expect(await firstTeam(file, dir)).toBe('from-the-entry');
  });

  it.each<[string, Partial<ValidationStamp>]>([
    ['burnrate version', { version: '1.0.1' }],
    ['build', { build: '2:1' }],
    ['Node version', { node: 'v22.1.0' }],
  ])('validates again after a change of the %s', async (_what, change) => {
    const { file, dir, entry } = project();
    const real = await firstTeam(file, dir);
    tamper(entry);
    expect(await firstTeam(file, dir, { ...STAMP, ...change })).toBe(real);
  });

  it('validates again when the chat platforms whose channel keys burnrate.yml may hold change', async () => {
    const { file, dir, entry } = project();
    await firstTeam(file, dir);
    tamper(entry);
    // Without the platforms a team's `slack:` key is unknown: the file is checked, not the entry served.
    expect((await caughtBurnrateError(loadValidatedConfig(file, [], dir, STAMP))).message).toMatch(/slack/);
    // With them again the entry, which a refusal never replaces, is served.
    expect(await firstTeam(file, dir)).toBe('from-the-entry');
  });

  it('validates a changed file again, a byte being enough', async () => {
    const { file, dir, entry } = project();
    await firstTeam(file, dir);
    tamper(entry);
    writeFileSync(file, `${EXAMPLE}\n`);
    expect(await firstTeam(file, dir)).toBe(parseConfigText(EXAMPLE, CHAT_CHANNELS).teams[0]?.id);
  });

  it('refuses an invalid file with the same message on every run, and keeps nothing for it', async () => {
    const { file, dir, entry } = project();
    await firstTeam(file, dir);
    const kept = readFileSync(entry, 'utf8');
    const invalid = EXAMPLE.replace('lookbackDays: 28', 'lookbackDays: 3');
    writeFileSync(file, invalid);
    const expected = errorOf(() => parseConfigText(invalid, CHAT_CHANNELS, file)).message;
    expect(expected).toContain('forecast.lookbackDays');
    for (let run = 0; run < 3; run++)
      expect((await caughtBurnrateError(loadValidatedConfig(file, CHAT_CHANNELS, dir, STAMP))).message).toBe(expected);
    expect(readFileSync(entry, 'utf8')).toBe(kept);
  });

  it('refuses a folder given as the file with the words it always had', async () => {
    const { dir } = project();
    const error = await caughtBurnrateError(loadValidatedConfig(dir, CHAT_CHANNELS, dir, STAMP));
    expect(error.message).toBe(`${dir} is not a file`);
  });

  it.each([
    ['not JSON', '{"key": "abc", "config": {'],
    ['JSON of another shape', '[1, 2, 3]'],
    ['empty', ''],
  ])('ignores a kept entry that is %s, validates the file and writes a good one', async (_what, corrupt) => {
    const { file, dir, entry } = project();
    writeFileSync(entry, corrupt);
    expect(await firstTeam(file, dir)).toBe(parseConfigText(EXAMPLE, CHAT_CHANNELS).teams[0]?.id);
    expect(JSON.parse(readFileSync(entry, 'utf8'))).toMatchObject({ key: expect.any(String) });
  });

  it('writes nothing where the database has no folder yet, and still answers', async () => {
    const { file, dir } = project();
    const missing = join(dir, 'not-yet');
    expect(await firstTeam(file, missing)).toBe(parseConfigText(EXAMPLE, CHAT_CHANNELS).teams[0]?.id);
    expect(existsSync(missing)).toBe(false);
  });

  it("stamps burnrate's version, its schema module's build, and Node's and its time zone data's versions", () => {
    const stamp = validationStamp();
    expect(stamp.node).toBe(`${process.version} icu ${process.versions.icu} tz ${process.versions.tz}`);
    expect(stamp.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(stamp.build).toMatch(/^[\d.]+:\d+$/);
  });
});
