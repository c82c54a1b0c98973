import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** A private folder; not the CLI harness's, which would load the whole CLI for nothing. */
const workDir = () => mkdtempSync(join(tmpdir(), 'burnrate-package-'));

const SCRIPT = fileURLToPath(new URL('../../scripts/build-if-stale.js', import.meta.url));

/**
 * A project whose `npm run build` only counts its runs (in builds.txt) and fails when FAIL exists,
 * so what `npm start` decides is seen without compiling anything.
 */
function project(): { dir: string; builds: () => number; start: () => number } {
  const dir = workDir();
  const build = `node -e "const fs=require('node:fs'); if (fs.existsSync('FAIL')) process.exit(3); fs.appendFileSync('builds.txt', 'x')"`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts: { build } }));
  mkdirSync(join(dir, 'src/cli'), { recursive: true });
  writeFileSync(join(dir, 'src/cli/a.ts'), 'export {};\n');
  writeFileSync(join(dir, 'src/cli/b.ts'), 'export {};\n');
  return {
    dir,
    builds: () => (existsSync(join(dir, 'builds.txt')) ? readFileSync(join(dir, 'builds.txt'), 'utf8').length : 0),
    start: () => spawnSync(process.execPath, [SCRIPT], { cwd: dir, stdio: 'ignore' }).status ?? -1,
  };
}

/** Dates a path a minute ahead: a change made after the last build, whatever the file system's time resolution. */
function changeLater(path: string): void {
  const later = new Date(Date.now() + 60_000);
  utimesSync(path, later, later);
}

describe('npm start builds only when a source changed', () => {
  it('builds the first time, not again while nothing changed, and again after an edit', () => {
    const p = project();
    expect(p.start()).toBe(0);
    expect(p.builds()).toBe(1);
    expect(p.start()).toBe(0);
    expect(p.builds()).toBe(1);
    writeFileSync(join(p.dir, 'src/cli/a.ts'), 'export const a = 1;\n');
    changeLater(join(p.dir, 'src/cli/a.ts'));
    expect(p.start()).toBe(0);
    expect(p.builds()).toBe(2);
  });

  it('builds again after a source is deleted (its folder changed)', () => {
    const p = project();
    p.start();
    rmSync(join(p.dir, 'src/cli/b.ts'));
    changeLater(join(p.dir, 'src/cli'));
    p.start();
    expect(p.builds()).toBe(2);
  });

  it('stops npm start when the build fails, and tries again next time', () => {
    const p = project();
    writeFileSync(join(p.dir, 'FAIL'), '');
    expect(p.start()).toBe(3);
    expect(existsSync(join(p.dir, 'dist/.build-stamp'))).toBe(false);
    rmSync(join(p.dir, 'FAIL'));
    expect(p.start()).toBe(0);
    expect(p.builds()).toBe(1);
  });
});
