import { describe, expect, it } from 'vitest';
import { readConsoleSettings, tokenMatches } from '../../../src/chat/console/console-settings.js';
import { isLoopback } from '../../../src/http/loopback.js';
import { BurnrateError } from '../../../src/domain/errors.js';

const TOKEN = 'c0ns0le-t0ken-4f9a8b7c6d5e';

function refusal(run: () => unknown): BurnrateError {
  try {
    run();
  } catch (error) {
    if (error instanceof BurnrateError) return error;
    throw error;
  }
  throw new Error('expected a BurnrateError');
}

describe('console settings', () => {
  it('is on by default when no chat platform is configured, off when one is', () => {
    expect(readConsoleSettings({}, { chatConfigured: false, host: '127.0.0.1' })).toEqual({ enabled: true, token: null, loopback: true });
    expect(readConsoleSettings({}, { chatConfigured: true, host: '127.0.0.1' }).enabled).toBe(false);
  });

  it('follows CONSOLE=on and CONSOLE=off whatever else is configured, and rejects other values', () => {
    expect(readConsoleSettings({ CONSOLE: 'on' }, { chatConfigured: true, host: '127.0.0.1' }).enabled).toBe(true);
    expect(readConsoleSettings({ CONSOLE: ' OFF ' }, { chatConfigured: false, host: '127.0.0.1' }).enabled).toBe(false);
    const error = refusal(() => readConsoleSettings({ CONSOLE: 'yes' }, { chatConfigured: false, host: '127.0.0.1' }));
    expect(error.code).toBe('burnrate_console_invalid');
    expect(error.message).toBe('CONSOLE must be "on" or "off", got "yes"');
  });

  it('refuses to listen beyond loopback without a token, and says what to set', () => {
    const error = refusal(() => readConsoleSettings({}, { chatConfigured: false, host: '0.0.0.0' }));
    expect(error.code).toBe('burnrate_console_token_required');
    expect(error.exitCode).toBe(2);
    expect(error.describe()).toContain('the console would listen on 0.0.0.0, reachable from other machines, without a token');
    expect(error.describe()).toContain('Set CONSOLE_TOKEN');
    expect(error.describe()).toContain('CONSOLE=off');
  });

  it('listens anywhere with a long enough token, and refuses a short one', () => {
    expect(readConsoleSettings({ CONSOLE_TOKEN: TOKEN }, { chatConfigured: false, host: '0.0.0.0' })).toEqual({
      enabled: true,
      token: TOKEN,
      loopback: false,
    });
    expect(refusal(() => readConsoleSettings({ CONSOLE_TOKEN: 'short' }, { chatConfigured: false, host: '0.0.0.0' })).code).toBe(
      'burnrate_console_token_short',
    );
  });

  it('asks nothing of a console that is off, even on a public address', () => {
    expect(readConsoleSettings({ CONSOLE: 'off' }, { chatConfigured: false, host: '0.0.0.0' }).enabled).toBe(false);
    expect(readConsoleSettings({}, { chatConfigured: true, host: '0.0.0.0' }).enabled).toBe(false);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['burnrate.example.com', false],
    ['127.0.0.1.nip.io', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });

  it('compares tokens exactly, whatever their length', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokenMatches(TOKEN.slice(0, -1), TOKEN)).toBe(false);
    expect(tokenMatches('', TOKEN)).toBe(false);
    expect(tokenMatches(null, TOKEN)).toBe(false);
  });
});
