import { describe, expect, it } from 'vitest';
import { readMcpTokens } from '../../src/mcp/mcp-tokens.js';
import { errorOf } from '../support/error-of.js';

const CAROL_TOKEN = 'c'.repeat(20) + '0123456789abcdef';
const DAN_TOKEN = 'd'.repeat(20) + '0123456789abcdef';

describe('BURNRATE_MCP_TOKENS', () => {
  it('maps each token to its user, and no other string to anyone', () => {
    const tokens = readMcpTokens({ BURNRATE_MCP_TOKENS: ` U0CAROL=${CAROL_TOKEN} , U0DAN=${DAN_TOKEN},` })!;
    expect(tokens.size).toBe(2);
    expect(tokens.userOf(CAROL_TOKEN)).toBe('U0CAROL');
    expect(tokens.userOf(DAN_TOKEN)).toBe('U0DAN');
    for (const guess of ['', CAROL_TOKEN.slice(1), `${CAROL_TOKEN} `, CAROL_TOKEN.toUpperCase(), 'U0CAROL'])
      expect(tokens.userOf(guess)).toBeNull();
  });

  it('is off when unset or empty', () => {
    expect(readMcpTokens({})).toBeNull();
    expect(readMcpTokens({ BURNRATE_MCP_TOKENS: '  ' })).toBeNull();
  });

  it('refuses a malformed entry, a short token or a repeated one, saying what to write and never echoing a token', () => {
    const cases: [string, RegExp][] = [
      [CAROL_TOKEN, /entry 1 of BURNRATE_MCP_TOKENS is not USER_ID=TOKEN/],
      [`U0CAROL=`, /entry 1 \(U0CAROL\) of BURNRATE_MCP_TOKENS is not USER_ID=TOKEN/],
      [`U0 CAROL=${CAROL_TOKEN}`, /is not USER_ID=TOKEN/],
      [`U0CAROL=short-secret`, /entry 1 \(U0CAROL\) .* shorter than 32 characters/],
      [`U0CAROL=${CAROL_TOKEN},U0DAN=${CAROL_TOKEN}`, /entry 2 \(U0DAN\) of BURNRATE_MCP_TOKENS repeats another entry's token/],
    ];
    for (const [value, message] of cases) {
      const error = errorOf(() => readMcpTokens({ BURNRATE_MCP_TOKENS: value }));
      expect(error.message, value).toMatch(message);
      expect(error.hint).toContain('USER_ID=TOKEN');
      expect(`${error.message} ${error.hint}`).not.toContain(CAROL_TOKEN);
      expect(`${error.message} ${error.hint}`).not.toContain('short-secret');
    }
  });
});
