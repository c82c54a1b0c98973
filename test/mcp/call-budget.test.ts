import { describe, expect, it } from 'vitest';
import { CallBudget } from '../../src/mcp/call-budget.js';

describe('requests a minute per token', () => {
  it('lets each user make so many requests in any rolling minute, and says when the next one is free', () => {
    let now = 0;
    const budget = new CallBudget(3, () => now);
    expect([budget.take('U1'), budget.take('U1')]).toEqual([{ ok: true }, { ok: true }]);
    now = 20_000;
    expect(budget.take('U1')).toEqual({ ok: true });
    expect(budget.take('U1')).toEqual({ ok: false, retryAfterSeconds: 40 });
    // Another user's budget is their own.
    expect(budget.take('U2')).toEqual({ ok: true });
    now = 59_500;
    expect(budget.take('U1')).toEqual({ ok: false, retryAfterSeconds: 1 });
    // The first two requests are a minute old: two are free again, not three.
    now = 60_001;
    expect([budget.take('U1'), budget.take('U1'), budget.take('U1')]).toEqual([
      { ok: true },
      { ok: true },
      { ok: false, retryAfterSeconds: 20 },
    ]);
  });
});
