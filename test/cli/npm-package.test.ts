import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** A private folder; not the CLI harness's, which would load the whole CLI for nothing. */
const workDir = () => mkdtempSync(join(tmpdir(), 'burnrate-package-'));

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface PackListing {
  filename: string;
  files: { path: string }[];
}

/** What `npm pack` would publish, as npm itself lists it (the build of `npm test` is the dist/ it packs). */
function packListing(destination?: string): PackListing {
  const args = ['pack', '--json', '--ignore-scripts', ...(destination ? ['--pack-destination', destination] : ['--dry-run'])];
  const text = execFileSync('npm', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return (JSON.parse(text) as PackListing[])[0]!;
}

describe('the npm package', () => {
  it('ships the compiled CLI and its run-time files, and no tests, sources or source maps', () => {
    expect(existsSync(join(ROOT, 'dist/src/main.js')), 'npm run build first').toBe(true);
    const paths = packListing().files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'bin/burnrate.js',
        'dist/src/main.js',
        'dist/src/cli/run-cli.js',
        'dist/src/catalog/gpu-prices.json',
        'dist/templates/message.js',
        'README.md',
        // The README's links are relative: its docs travel with it.
        'docs/production.md',
        'burnrate.example.yml',
        'teams/manifest.json',
      ]),
    );
    expect(paths.filter((p) => p.startsWith('test/') || /\.test\.[jt]s$/.test(p))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.ts') || p.endsWith('.map'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('dist/bench/') || p.startsWith('dist/scripts/'))).toEqual([]);
  });

  it('builds a clean dist/ before packing, so no output of a deleted source is published', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.prepack).toMatch(/rmSync\('dist'.*&& npm run build/);
  });

  it('runs from the unpacked tarball: --version and a verb help page', () => {
    const dir = workDir();
    const { filename } = packListing(dir);
    execFileSync('tar', ['xzf', filename], { cwd: dir });
    // The dependencies an install would bring: this checkout's, so the test needs no registry.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'package/node_modules'), 'dir');
    const cwd = join(dir, 'elsewhere');
    mkdirSync(cwd);
    const run = (...args: string[]) =>
      execFileSync(process.execPath, [join(dir, 'package/bin/burnrate.js'), ...args], { cwd, encoding: 'utf8' });
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run('--version')).toBe(`burnrate ${version}\n`);
    expect(run('spend', '--help')).toContain('Usage: burnrate spend');
  }, 60_000);
});
