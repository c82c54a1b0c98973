import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { workDir } from '../support/run-cli.js';

const ESC = '\u001b';

/** Runs the CLI with output streams that say they are a terminal, where colour would be written if anywhere. */
async function onTerminal(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; text: string }> {
  const chunks: Buffer[] = [];
  const stream = () => Object.assign(new PassThrough(), { isTTY: true }).on('data', (c: Buffer) => chunks.push(c));
  const now = new Date('2026-11-21T09:00:00Z');
  const code = await runCli(args, { out: stream(), err: stream(), env: { LOG_LEVEL: 'silent', ...env }, cwd, clock: () => now });
  return { code, text: Buffer.concat(chunks).toString() };
}

describe('NO_COLOR', () => {
  it('no verb writes an ANSI escape on a terminal with NO_COLOR set (burnrate writes no colour at all)', async () => {
    const cwd = workDir();
    const env = { NO_COLOR: '1', FORCE_COLOR: '1' };
    const runs = [
      await onTerminal(['demo'], cwd, env),
      await onTerminal(['spend', '--period', '2026-10'], cwd, env),
      await onTerminal(['check', '--dry-run'], cwd, env),
      await onTerminal(['idle'], cwd, env),
      await onTerminal(['status'], cwd, env),
      await onTerminal(['spend', '--help'], cwd, env),
      await onTerminal(['spend', '--by', 'nonsense'], cwd, env),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0, 2]);
    for (const run of runs) expect(run.text).not.toContain(ESC);
  }, 120_000);
});
