import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { slackLogger } from '../../../src/chat/slack/slack-logger.js';

describe("Bolt's logger on pino", () => {
  function capture(level: string) {
    const lines: string[] = [];
    const sink = new PassThrough();
    sink.on('data', (c: Buffer) => lines.push(c.toString()));
    return { logger: slackLogger(pino({ level }, sink)), lines };
  }

  it('writes enabled levels with tokens redacted, and does not even format lines below LOG_LEVEL', async () => {
    const { logger, lines } = capture('info');
    let serialised = 0;
    const payload = { toJSON: () => (serialised++, { token: 'xoxb-1234-secret' }) };
    logger.debug('request', payload);
    expect(serialised).toBe(0);
    logger.info('request', payload);
    expect(serialised).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"component":"slack"');
    expect(lines[0]).not.toContain('xoxb-1234-secret');
  });
});
