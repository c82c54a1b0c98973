import type { Writable } from 'node:stream';

/** What a CLI verb may touch: injected so tests run verbs in-process with captured output. */
export interface CliIo {
  out: Writable;
  err: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
  clock?: () => Date;
}

export type Verb = (args: string[], io: CliIo) => Promise<number>;
