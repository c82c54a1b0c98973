import pino, { type Logger } from 'pino';

/**
 * Structured logs to stderr, so stdout stays clean for command output and --json.
 * Anything that looks like a credential is redacted even if a caller logs it by mistake.
 */
export function createLogger(env: NodeJS.ProcessEnv = process.env, destination = 2): Logger {
  return pino(
    {
      // A person at a terminal wants the bot's output, not its routine logs; a container wants both.
      level: env.LOG_LEVEL ?? (process.stderr.isTTY ? 'warn' : 'info'),
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
