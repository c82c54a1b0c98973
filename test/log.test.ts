import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';

/** A logger writing into a file of its own, and what the file holds. */
function fileLogger(env: NodeJS.ProcessEnv) {
  const file = join(mkdtempSync(join(tmpdir(), 'burnrate-log-')), 'log.ndjson');
  const fd = openSync(file, 'w');
  return {
    log: createLogger(env, fd),
    lines: () => {
      closeSync(fd);
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}

describe('the logger', () => {
  it('writes the lines at or above LOG_LEVEL as JSON, with credentials redacted', () => {
    const { log, lines } = fileLogger({ LOG_LEVEL: 'warn' });
    let serialised = 0;
    log.info({ payload: { toJSON: () => (serialised++, 'below the level') } }, 'routine');
    log.warn({ token: 'xoxb-1234-secret', headers: { authorization: 'Bearer abc' } }, 'slow answer');
    log.error({ password: 'hunter2' }, 'delivery failed');
    const written = lines();
    expect(written.map((line) => [line.level, line.msg])).toEqual([
      [40, 'slow answer'],
      [50, 'delivery failed'],
    ]);
    expect(JSON.stringify(written)).not.toMatch(/xoxb-1234-secret|Bearer abc|hunter2/);
    expect(written[0]).toMatchObject({ token: '[redacted]', headers: { authorization: '[redacted]' } });
    expect(serialised).toBe(0);
  });

  it('reports its level, and children write through the same destination', () => {
    const { log, lines } = fileLogger({ LOG_LEVEL: 'info' });
    expect(log.level).toBe('info');
    log.child({ component: 'slack' }).info('connected');
    expect(lines()).toMatchObject([{ level: 30, msg: 'connected', component: 'slack' }]);
  });

  it('writes nothing at LOG_LEVEL=silent', () => {
    const { log, lines } = fileLogger({ LOG_LEVEL: 'silent' });
    log.error('not shown');
    log.warn('not shown either');
    expect(lines()).toEqual([]);
  });

  it('refuses an unknown LOG_LEVEL when it is created, not at the first line', () => {
    expect(() => createLogger({ LOG_LEVEL: 'verbose' })).toThrow(/verbose/);
  });
});
