import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';

const page = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/configuration.md', () => {
  it('has a row for every top-level key of burnrate.yml', () => {
    const table = page.slice(page.indexOf('## burnrate.yml, section by section'), page.indexOf('## The environment'));
    for (const key of Object.keys(configSchema.shape)) expect(table, key).toMatch(new RegExp(`^\\| [^|]*\`${key}\``, 'm'));
  });

  it('names every environment variable burnrate reads by name', () => {
    const table = page.slice(page.indexOf('## The environment'));
    const read = new Set(
      sources(SRC).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]{2,})\b/g)].map((m) => m[1]!)),
    );
    expect(read.size).toBeGreaterThan(10);
    for (const variable of read) expect(table, variable).toContain(`\`${variable}\``);
  });
});
