import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { workDir } from './run-cli.js';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  /** The folder it runs in: `data/burnrate.db` is its database. */
  cwd: string;
  port: number;
  out(): string;
  err(): string;
  /** Ctrl-C, then the exit code. */
  stop(): Promise<number | NodeJS.Signals | null>;
}

/**
 * `npm start` as a user runs it: the compiled binary in a fresh folder (the demo organisation;
 * or in `cwd`, to start again on the database a first run left),
 * on a free port. Only what the process needs is passed on: no cloud credentials or proxies from
 * the developer's shell, cloud metadata probes off, so the only network is 127.0.0.1.
 */
export async function startServe(extraEnv: NodeJS.ProcessEnv = {}, timeoutMs = 60_000, cwd = workDir()): Promise<ServeProcess> {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    LOG_LEVEL: 'error',
    AWS_EC2_METADATA_DISABLED: 'true',
    METADATA_SERVER_DETECTION: 'none',
    NO_PROXY: '127.0.0.1,localhost',
    PORT: String(port),
    ...extraEnv,
  };
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd, env });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  // The signal when it died of one, so that a failed expectation says which (SIGABRT, SIGKILL, ...).
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on('exit', (code, signal) => {
      // A death by signal is a failure the test cannot explain on its own: what the process printed can.
      if (signal) process.stderr.write(`burnrate serve ended by ${signal}; its output:\n${out}\n${err}\n`);
      resolve(code ?? signal);
    }),
  );
  const deadline = Date.now() + timeoutMs;
  while (!out.includes('press Ctrl-C to stop')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGINT');
      throw new Error(`serve did not start:\n${out}\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    cwd,
    port,
    out: () => out,
    err: () => err,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}
