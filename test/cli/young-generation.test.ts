import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HeapSpaceInfo } from 'node:v8';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));
const REPORTER = fileURLToPath(new URL('../support/report-heap-spaces.mjs', import.meta.url));

/** The young generation's size (both semi-spaces) as the built CLI's process exits. */
function youngGenerationMb(args: string[]): number {
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-heap-'));
  const file = join(dir, 'spaces.json');
  execFileSync(process.execPath, ['--import', REPORTER, BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', HEAP_SPACES_FILE: file },
    encoding: 'utf8',
  });
  const spaces = JSON.parse(readFileSync(file, 'utf8')) as HeapSpaceInfo[];
  return spaces.find((space) => space.space_name === 'new_space')!.space_size / 1024 / 1024;
}

describe('a command that answers and exits', () => {
  it('keeps the young generation at its first size (V8 would grow it to 16 MB while the modules load)', () => {
    expect(existsSync(BUILT), 'npm run build first').toBe(true);
    expect(youngGenerationMb(['spend', '--by', 'team'])).toBeLessThanOrEqual(2);
    expect(youngGenerationMb(['budgets'])).toBeLessThanOrEqual(2);
  }, 30_000);
});
