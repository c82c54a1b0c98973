import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../fixtures/store/sqlite-steps.js';

// The built store: a real second process, as a replica or an answer worker is (npm test builds first).
const STORE = pathToFileURL(join(process.cwd(), 'dist/src/store/sqlite/open-sqlite-store.js')).href;

/** A process that opens `path` at `at` (epoch ms), so all of them start migrating together. */
function opener(path: string, at: number): Promise<{ code: number | null; stderr: string }> {
  const script = `const { openStore } = await import(${JSON.stringify(STORE)});
while (Date.now() < ${at}) {}
openStore(${JSON.stringify(path)}).close();`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('several processes opening a new database at the same moment', () => {
  it('migrate it once between them: none fails on a table another just created', async () => {
    for (let round = 0; round < 4; round++) {
      const path = join(mkdtempSync(join(tmpdir(), 'burnrate-race-')), 'burnrate.db');
      const at = Date.now() + 1_500;
      const results = await Promise.all([1, 2, 3, 4].map(() => opener(path, at)));
      expect(results.map((r) => r.stderr)).toEqual(['', '', '', '']);
      expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
      const db = new Database(path, { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      db.close();
    }
  }, 60_000);
});
