import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageVersion } from './package-version.js';
import type { ConfigChannels } from './parse-config.js';
import { readConfigFile } from './read-yaml.js';
import type { Config } from './schema.js';

/** Beside the SQLite database: one entry, the last burnrate.yml validated there. */
export const VALIDATED_CONFIG_FILE = 'burnrate.yml.validated.json';

/** What the validation's result depends on besides the file's bytes; a change of any of them re-validates. */
export interface ValidationStamp {
  /** burnrate's version. */
  version: string;
  /** The schema module's modification time and size: every build rewrites it, so a rebuilt checkout re-validates. */
  build: string;
  /** Node's version and its ICU's: time zones are checked against ICU's data, which a system ICU updates apart from Node. */
  node: string;
}

interface CacheEntry {
  key: string;
  config: Config;
}

/**
 * burnrate.yml validated once per content: the parsed result is kept in `dir` (the database's folder)
 * under a hash of the file's bytes, the chat platforms' channel keys and the stamp, so a command that
 * only reads skips the YAML parser and the schema (zod), about 10 MB and half the CPU of `spend`,
 * until one of them changes. An invalid file is never kept, so it is refused, with the same message, on every run. The
 * entry holds what the file holds (no secrets: those come from the environment) and is written only
 * into a folder that exists, readable by its owner alone; a missing, unreadable or corrupt one is
 * ignored and the file validated again.
 */
export async function loadValidatedConfig(
  file: string,
  channels: ConfigChannels,
  dir: string,
  stamp: ValidationStamp = validationStamp(),
): Promise<Config> {
  const text = readConfigFile(file);
  const key = createHash('sha256').update(JSON.stringify({ stamp, channels })).update('\0').update(text).digest('hex');
  const path = join(dir, VALIDATED_CONFIG_FILE);
  const kept = readEntry(path);
  if (kept?.key === key) return kept.config;
  const config = (await import('./parse-config.js')).parseConfigText(text, channels, file);
  writeEntry(path, dir, { key, config });
  return config;
}

export function validationStamp(): ValidationStamp {
  const own = fileURLToPath(import.meta.url);
  const schema = statSync(join(own, '..', `schema${extname(own)}`));
  return {
    version: packageVersion(),
    build: `${schema.mtimeMs}:${schema.size}`,
    node: `${process.version} icu ${process.versions.icu} tz ${process.versions.tz}`,
  };
}

function readEntry(path: string): CacheEntry | undefined {
  try {
    const entry = JSON.parse(readFileSync(path, 'utf8')) as Partial<CacheEntry> | null;
    return typeof entry?.key === 'string' && typeof entry.config === 'object' && entry.config !== null ? (entry as CacheEntry) : undefined;
  } catch {
    return undefined; // none yet, or not readable as an entry: validate the file again
  }
}

function writeEntry(path: string, dir: string, entry: CacheEntry): void {
  if (!existsSync(dir)) return;
  // Written whole under a name of its own (threads of one process may write at once), then renamed:
  // a command reading at the same time sees the old entry or the new one.
  const partial = `${path}.${randomUUID()}.tmp`;
  try {
    writeFileSync(partial, JSON.stringify(entry), { mode: 0o600 });
    renameSync(partial, path);
  } catch {
    // A read-only folder: every command validates the file, as without the cache.
    try {
      unlinkSync(partial);
    } catch {
      // never written
    }
  }
}
