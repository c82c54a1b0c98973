import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformWithOxc } from 'vite';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeThrown, installProcessGuard, redactSecrets } from '../src/process-guard.js';

const GUARD_SOURCE = fileURLToPath(new URL('../src/process-guard.ts', import.meta.url));
const PINO = pathToFileURL(createRequire(import.meta.url).resolve('pino')).href;

/**
 * A tiny server in its own Node process, logging with pino as serve does: /reject leaves a promise
 * rejected with nobody listening, /throw throws from the request handler, / answers "alive".
 * With `guarded` it installs the process guard first.
 */
const CHILD = `
import pino from '${PINO}';
import { createServer } from 'node:http';
if (process.argv[2] === 'guarded') {
  const { installProcessGuard } = await import('./process-guard.mjs');
  installProcessGuard(pino(pino.destination({ fd: 2, sync: true })));
}
const server = createServer((req, res) => {
  if (req.url === '/throw') throw new Error('handler threw holding xoxb-1111-2222-secret');
  if (req.url === '/reject') {
    Promise.reject(new Error('rejected with Authorization Bearer eyJhbGciOi.secret'));
    return res.end('ok');
  }
  res.end('alive');
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
`;

describe('installProcessGuard', () => {
  let dir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // Node 20 cannot import TypeScript: the module is compiled as it is, with vite's own transform.
    dir = mkdtempSync(join(tmpdir(), 'burnrate-guard-'));
    const compiled = await transformWithOxc(readFileSync(GUARD_SOURCE, 'utf8'), GUARD_SOURCE, { lang: 'ts' });
    writeFileSync(join(dir, 'process-guard.mjs'), compiled.code);
    writeFileSync(join(dir, 'child.mjs'), CHILD);
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
  });

  async function startChild(mode: 'guarded' | 'bare') {
    const child = spawn(process.execPath, [join(dir, 'child.mjs'), mode], { cwd: dir, env: { PATH: process.env.PATH } });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    while (!out.includes('port')) {
      if (child.exitCode !== null) throw new Error(`child ended early: ${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const base = `http://127.0.0.1:${(JSON.parse(out) as { port: number }).port}`;
    return { child, base, exited, err: () => err };
  }

  it('without it, one rejection nobody listens for ends the process (what the guard is for)', async () => {
    const bare = await startChild('bare');
    await fetch(`${bare.base}/reject`).catch(() => {});
    expect(await bare.exited).not.toBe(0);
    expect(bare.err()).toContain('rejected with Authorization');
  });

  it('with it, a rejection and a throw from a request handler are logged, redacted, and the process keeps serving', async () => {
    const guarded = await startChild('guarded');
    expect(await (await fetch(`${guarded.base}/reject`)).text()).toBe('ok');
    // The throwing request gets no answer (its handler died), but nothing else is affected.
    await expect(fetch(`${guarded.base}/throw`, { signal: AbortSignal.timeout(500) })).rejects.toThrow();
    expect(await (await fetch(`${guarded.base}/`)).text()).toBe('alive');
    expect(guarded.child.exitCode).toBeNull();

    const lines = guarded
      .err()
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { level: number; msg: string; event: string; error: { type: string; message: string; stack?: string } },
      );
    expect(lines.map((l) => [l.level, l.event, l.error.type, l.error.message])).toEqual([
      [50, 'unhandledRejection', 'Error', 'rejected with Authorization Bearer [redacted]'],
      [50, 'uncaughtException', 'Error', 'handler threw holding [redacted]'],
    ]);
    expect(lines[0]!.msg).toBe('unhandled promise rejection: logged, burnrate keeps running');
    expect(lines[1]!.error.stack).toContain('child.mjs');
    expect(guarded.err()).not.toMatch(/xoxb-|eyJhbGciOi/);
  });

  it('can be removed again, and describes anything thrown, not only Errors', () => {
    const proc = new EventEmitter();
    const logged: unknown[] = [];
    const remove = installProcessGuard({ error: (obj: unknown) => logged.push(obj) } as never, proc);
    proc.emit('unhandledRejection', 'a string reason with token=abc123');
    remove();
    expect(proc.listenerCount('unhandledRejection') + proc.listenerCount('uncaughtException')).toBe(0);
    expect(logged).toEqual([{ error: { type: 'string', message: 'a string reason with token=[redacted]' }, event: 'unhandledRejection' }]);
    expect(describeThrown(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toMatchObject({ type: 'Error', code: 'ECONNRESET' });
    expect(redactSecrets('https://user:pw@example.com/?secret=s3&x=1 xapp-1-A-2')).toBe(
      'https://[redacted]@example.com/?secret=[redacted]&x=1 [redacted]',
    );
  });
});
