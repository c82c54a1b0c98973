import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.js';

// Vitest's global setup: the Postgres tests get a server URL through inject('postgresUrl').
// DATABASE_URL when it is set; else a throwaway cluster from this machine's PostgreSQL binaries
// (Debian's postgresql package), on 127.0.0.1, removed at the end; else '' and those tests skip.

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** The PostgreSQL server binaries: PATH first, then Debian's versioned folders, newest first. */
function findBinaries(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return join(onPath, '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) if (existsSync(join(root, version, 'bin', 'initdb'))) return join(root, version, 'bin');
  return null;
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) {
    project.provide('postgresUrl', process.env.DATABASE_URL);
    return () => {};
  }
  const bin = findBinaries();
  if (!bin) {
    process.stderr.write('Postgres tests skipped: set DATABASE_URL, or install PostgreSQL (apt-get install postgresql).\n');
    project.provide('postgresUrl', '');
    return () => {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-pg-'));
  const data = join(dir, 'data');
  // Postgres refuses to run as root: as root, the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(dir, 0o777);
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : join(bin, command), asRoot ? ['-u', 'postgres', '--', join(bin, command), ...args] : args, {
      stdio: 'pipe',
    });
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'burnrate', '--auth=trust', '-N', '-E', 'UTF8', '--locale=C']);
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start']);
  project.provide('postgresUrl', `postgres://burnrate@127.0.0.1:${port}/postgres`);
  return () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
