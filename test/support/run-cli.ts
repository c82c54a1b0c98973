import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** Runs the real CLI in-process with captured output, a fixed clock and a private working folder. */
export async function cli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; now?: string } = {}): Promise<CliResult> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  out.on('data', (c: Buffer) => chunks.out.push(c));
  err.on('data', (c: Buffer) => chunks.err.push(c));
  const now = new Date(options.now ?? '2026-11-21T09:00:00Z');
  const code = await runCli(args, {
    out,
    err,
    env: { LOG_LEVEL: 'silent', ...options.env },
    cwd: options.cwd ?? workDir(),
    clock: () => now,
  });
  return { code, out: Buffer.concat(chunks.out).toString(), err: Buffer.concat(chunks.err).toString() };
}

export function workDir(): string {
  return mkdtempSync(join(tmpdir(), 'burnrate-cli-'));
}
