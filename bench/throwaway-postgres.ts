import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

// A Postgres server of its own for the tests and the benchmarks, from this machine's PostgreSQL
// binaries (Debian's postgresql package), on 127.0.0.1, in a temporary folder removed at the end.
// Durability is off: nothing here outlives the run.

export interface ThrowawayPostgres {
  /** The server's URL (database `postgres`, user `burnrate`, no password: trust on loopback). */
  url: string;
  stop(): void;
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

/** Starts one, or null when this machine has no PostgreSQL binaries. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres | null> {
  const bin = findBinaries();
  if (!bin) return null;
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-pg-'));
  const data = join(dir, 'data');
  // Postgres refuses to run as root: as root, the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(dir, 0o777);
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : join(bin, command), asRoot ? ['-u', 'postgres', '--', join(bin, command), ...args] : args, {
      stdio: 'pipe',
    });
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'burnrate', '--auth=trust', '-N', '-E', 'UTF8', '--locale=C']);
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://burnrate@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A new, empty database on the server at `serverUrl`; its URL. `options` follow CREATE DATABASE's name (LOCALE_PROVIDER …). */
export async function createDatabase(serverUrl: string, name: string, options = ''): Promise<string> {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} ${options}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
