import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * burnrate's version, from its package.json: two folders above src/config/ when run from source,
 * three above dist/src/config/ when built. 'unknown' when neither is burnrate's (never throws:
 * the version is shown, not relied on).
 */
export function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const parsed = JSON.parse(readFileSync(fileURLToPath(new URL(up, import.meta.url)), 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'burnrate' && parsed.version) return parsed.version;
    } catch {
      // not this folder: try the next one up
    }
  }
  return 'unknown';
}
