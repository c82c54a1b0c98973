import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deliveryTimings } from '../../src/config/delivery-schema.js';
import { parseConfigText } from '../support/config.js';
import { cli, workDir } from '../support/run-cli.js';
import { errorOf } from '../support/error-of.js';

const withDelivery = (delivery: string) => `teams:\n  - { id: a }\ndelivery: ${delivery}\n`;

describe('delivery settings in burnrate.yml', () => {
  it('reads the defaults and settings inside the bounds, in milliseconds', () => {
    expect(deliveryTimings(parseConfigText('teams: []').delivery)).toEqual({
      retryForMs: 24 * 3_600_000,
      baseDelayMs: 2_000,
      maxDelayMs: 5 * 60_000,
      leaseMs: 2 * 60_000,
    });
    const edges = parseConfigText(withDelivery('{ retryFor: 30d, firstRetryAfter: 1s, maxRetryAfter: 1d, lease: 30s }')).delivery;
    expect(deliveryTimings(edges)).toEqual({ retryForMs: 30 * 86_400_000, baseDelayMs: 1_000, maxDelayMs: 86_400_000, leaseMs: 30_000 });
    expect(deliveryTimings(parseConfigText(withDelivery('{ lease: 1h }')).delivery).leaseMs).toBe(3_600_000);
  });

  it.each([
    ['{ lease: 99999999999d }', 'delivery.lease: expected how long a delivery holds a message from 30s to 1h', '"99999999999d"'],
    ['{ lease: 1e400s }', 'delivery.lease: expected how long a delivery holds a message as a number and a unit', '"1e400s"'],
    [
      '{ lease: 1ms }',
      'delivery.lease: expected how long a delivery holds a message from 30s to 1h (longer than a chat call may take, 15s',
      '"1ms"',
    ],
    ['{ lease: 29s }', 'from 30s to 1h', '"29s"'],
    ['{ lease: 61m }', 'from 30s to 1h', '"61m"'],
    ['{ lease: NaN }', 'as a number and a unit', '"NaN"'],
    ['{ lease: -5m }', 'as a number and a unit', '"-5m"'],
    ['{ lease: "" }', 'as a number and a unit', '""'],
    [
      '{ firstRetryAfter: 0s }',
      'delivery.firstRetryAfter: expected the first wait before a retry from 1s to 1h (a shorter wait would call',
      '"0s"',
    ],
    ['{ firstRetryAfter: 500ms }', 'from 1s to 1h', '"500ms"'],
    ['{ maxRetryAfter: 0s }', 'delivery.maxRetryAfter: expected the longest wait between retries from 1s to 1d', '"0s"'],
    ['{ retryFor: 31d }', 'delivery.retryFor: expected how long to retry a message from 1m to 30d', '"31d"'],
  ])('refuses %s, saying the bounds', (delivery, message, got) => {
    const error = errorOf(() => parseConfigText(withDelivery(delivery)));
    expect(error.code).toBe('burnrate_config_invalid');
    expect(error.message).toContain(message);
    expect(error.message).toContain(`got ${got}`);
  });

  it('refuses infinite numbers before the schema sees them', () => {
    expect(errorOf(() => parseConfigText(withDelivery('{ lease: .inf }'))).message).toContain('delivery.lease: .inf is infinite');
    expect(errorOf(() => parseConfigText(withDelivery('{ retryFor: 1e400 }'))).message).toContain('delivery.retryFor: 1e400 overflows');
  });

  it('refuses waits that contradict each other', () => {
    expect(errorOf(() => parseConfigText(withDelivery('{ firstRetryAfter: 10m, maxRetryAfter: 5m }'))).message).toContain(
      'delivery.maxRetryAfter: expected the longest wait between retries to be at least the first, 10m; got 5m',
    );
    expect(errorOf(() => parseConfigText(withDelivery('{ firstRetryAfter: 1h, maxRetryAfter: 1h, retryFor: 30m }'))).message).toContain(
      'delivery.retryFor: expected to retry for at least the first wait, 1h',
    );
  });

  it('`burnrate config validate` says the same, with exit code 2', async () => {
    const dir = workDir();
    writeFileSync(join(dir, 'burnrate.yml'), withDelivery('{ firstRetryAfter: 0s, maxRetryAfter: 0s, lease: 99999999999d }'));
    const result = await cli(['config', 'validate', '--config', 'burnrate.yml'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.err).toContain('burnrate.yml has 3 errors');
    expect(result.err).toContain('delivery.firstRetryAfter: expected the first wait before a retry from 1s to 1h');
    expect(result.err).toContain('delivery.maxRetryAfter: expected the longest wait between retries from 1s to 1d');
    expect(result.err).toContain('delivery.lease: expected how long a delivery holds a message from 30s to 1h');
  });
});
