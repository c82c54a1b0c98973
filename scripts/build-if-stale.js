#!/usr/bin/env node
// `npm start` builds only when a source changed since the last build, so a start with nothing
// changed goes straight to serve (a full `tsc` takes half a minute; TypeScript's own incremental
// mode still spends most of that on a build with no change). Plain JavaScript: it runs before
// anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What tsconfig.json compiles, and the files that change how it compiles. */
const INPUTS = ['src', 'templates', 'commands', 'bench', 'scripts', 'tsconfig.json', 'package.json', 'package-lock.json'];
/** Written after a build that succeeded, dated when that build started. */
const STAMP = join('dist', '.build-stamp');

/**
 * The newest modification time under `path`. Folders count too: deleting or renaming a file
 * changes its folder's time, and the stale output of a deleted source must not be run.
 */
function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : -1;
if (built >= Math.max(...INPUTS.map(newestChange))) process.exit(0);

// Dated from before the build: a source saved while tsc runs is newer, so the next start builds again.
const started = new Date();
const result = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', shell: process.platform === 'win32' });
if (result.status !== 0) process.exit(result.status ?? 1);
mkdirSync('dist', { recursive: true });
writeFileSync(STAMP, `${started.toISOString()}\n`);
utimesSync(STAMP, started, started);
