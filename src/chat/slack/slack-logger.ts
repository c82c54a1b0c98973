import type { Logger as SlackLogger, LogLevel } from '@slack/web-api';
import type { Logger } from 'pino';
import { redactTokens } from './slack-tokens.js';

/**
 * Bolt and the WebClient log through @slack/logger, which prints to the console by default. This
 * adapter sends their lines to our pino logger instead: one JSON log stream, one LOG_LEVEL, and
 * credentials redacted. Bolt calls setLevel(INFO) on any logger it is given; that is ignored on
 * purpose so LOG_LEVEL stays the only switch.
 */
export function slackLogger(log: Logger): SlackLogger {
  const line = (parts: unknown[]) =>
    redactTokens(parts.map((p) => (p instanceof Error ? p.message : typeof p === 'string' ? p : safeJson(p))).join(' '));
  const child = log.child({ component: 'slack' });
  // Bolt logs a debug line on every request, on the path to the ack: a line nobody will read is
  // not formatted (redacting and serialising cost more than the check).
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...msg: unknown[]) => {
      if (child.isLevelEnabled(level)) child[level](line(msg));
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    setLevel: () => {},
    getLevel: () => (LEVELS[log.level] ?? 'info') as LogLevel,
    setName: () => {},
  };
}

/** pino's levels as @slack/logger names them; pino's trace, fatal and silent have no twin. */
const LEVELS: Record<string, string> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  error: 'error',
  fatal: 'error',
  silent: 'error',
};

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
