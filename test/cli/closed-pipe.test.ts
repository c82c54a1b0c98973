import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));

describe('a reader that stops early', () => {
  it('ends burnrate quietly with exit 0 when the pipe closes (burnrate demo | head -1)', async () => {
    expect(existsSync(fileURLToPath(new URL('../../dist/src/main.js', import.meta.url))), 'npm run build first').toBe(true);
    const cwd = mkdtempSync(join(tmpdir(), 'burnrate-pipe-'));
    const child = spawn(process.execPath, [BIN, 'demo'], { cwd, env: { ...process.env, LOG_LEVEL: 'silent' } });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    // Read the first line, then close the pipe as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(err).not.toContain('EPIPE');
    expect(code).toBe(0);
  }, 120_000);
});
