import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../support/wait-for.js';
import { freePort } from '../support/free-port.js';
import { TEST_SIGNING_SECRET } from '../support/slack-request.js';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));

/** Three teams on the demo source, with budgets small enough that each crosses thresholds now. */
export const FAULT_CONFIG = `
teams:
  - id: llm-training
    match: [llm-training, llm]
    slack: { channel: C0LLM }
    budget: { monthly: 1000, thresholds: [50, 80, 100] }
  - id: ml-research
    match: [ml-research, research]
    slack: { channel: C0RES }
    budget: { monthly: 1000, thresholds: [50, 80, 100] }
  - id: inference
    match: [inference, serving]
    slack: { channel: C0INF }
    budget: { monthly: 1000, thresholds: [50, 80, 100] }
sources:
  - type: demo
# Retries a second apart (the shortest wait burnrate.yml allows), so an outage of many attempts passes in seconds.
delivery: { firstRetryAfter: 1s, maxRetryAfter: 1s }
# The fake Slack does not hold history to Tier 1 (slack-history-limits.test.ts plays that): read it at
# once, so alerts left in doubt by the outage are confirmed in seconds rather than one a minute.
slack: { historyLimit: marketplace }
`;

export interface Proc {
  child: ChildProcess;
  port: number;
  out(): string;
  err(): string;
  exited: Promise<number | NodeJS.Signals | null>;
}

/** The environment of a real serve against a fake Slack Web API: nothing inherited but PATH. */
export function faultEnv(apiUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    LOG_LEVEL: 'error',
    AWS_EC2_METADATA_DISABLED: 'true',
    METADATA_SERVER_DETECTION: 'none',
    NO_PROXY: '127.0.0.1,localhost',
    SLACK_BOT_TOKEN: 'xoxb-0000-test-token-do-not-log',
    SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
    SLACK_API_URL: apiUrl,
    BURNRATE_ANSWER_WORKERS: '0',
    ...extra,
  };
}

export function writeConfig(cwd: string, text = FAULT_CONFIG): void {
  writeFileSync(join(cwd, 'burnrate.yml'), text);
}

/** Starts `burnrate <verb>` in `cwd`; for serve, on a free port. Does not wait for anything. */
export async function spawnBurnrate(cwd: string, env: NodeJS.ProcessEnv, args: string[] = ['serve']): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...env, PORT: String(port) } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  return { child, port, out: () => out, err: () => err, exited };
}

export async function started(proc: Proc, timeoutMs = 60_000): Promise<void> {
  await waitFor(() => proc.out().includes('press Ctrl-C to stop') || proc.child.exitCode !== null, 'serve to start', timeoutMs);
  if (proc.child.exitCode !== null) throw new Error(`serve exited ${proc.child.exitCode}:\n${proc.out()}\n${proc.err()}`);
}

export async function readyz(proc: Proc): Promise<{ ok: boolean; outbox: Record<string, number> }> {
  return (await fetch(`http://127.0.0.1:${proc.port}/readyz`)).json() as Promise<{ ok: boolean; outbox: Record<string, number> }>;
}

/** Ctrl-C and the exit code; a process already gone gives what it exited with. */
export async function stop(proc: Proc): Promise<number | NodeJS.Signals | null> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGINT');
  return proc.exited;
}
