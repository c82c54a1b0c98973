import { createRequire } from 'node:module';
import type { Logger } from 'pino';

/** pino's levels and their values: a call below the logger's level writes nothing. */
const LEVELS: Readonly<Record<string, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

const noop = () => {};

/**
 * Structured logs to stderr, so stdout stays clean for command output and --json.
 * Anything that looks like a credential is redacted even if a caller logs it by mistake.
 *
 * pino (28 module files, a tenth of a read command's start) loads on the first line actually
 * written, or the first use of anything beyond the level methods: a command that logs nothing at
 * its level (a person at a terminal sees warnings only) never loads it. An unknown LOG_LEVEL still
 * stops burnrate here, as pino itself would.
 */
export function createLogger(env: NodeJS.ProcessEnv = process.env, destination = 2): Logger {
  // A person at a terminal wants the bot's output, not its routine logs; a container wants both.
  const level = env.LOG_LEVEL ?? (process.stderr.isTTY ? 'warn' : 'info');
  let logger: Logger | undefined;
  const loaded = () => (logger ??= pinoLogger(level, destination));
  if (LEVELS[level] === undefined) loaded();
  return new Proxy({} as Logger, {
    get(_, key) {
      if (!logger && typeof key === 'string') {
        if (key === 'level') return level;
        const value = LEVELS[key];
        if (value !== undefined && value < LEVELS[level]!) return noop;
      }
      const real = loaded();
      const value: unknown = Reflect.get(real, key, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
    set: (_, key, value) => Reflect.set(loaded(), key, value),
    has: (_, key) => Reflect.has(loaded(), key),
  });
}

function pinoLogger(level: string, destination: number): Logger {
  // pino is CommonJS: required synchronously, so the first log line is written where it is called.
  const pino = createRequire(import.meta.url)('pino') as typeof import('pino').default;
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'token',
          '*.token',
          'password',
          '*.password',
          'secret',
          '*.secret',
          'authorization',
          '*.authorization',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    pino.destination({ fd: destination, sync: true }),
  );
}

export type { Logger };
