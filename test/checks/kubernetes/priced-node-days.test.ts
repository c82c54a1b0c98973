import { describe, expect, it } from 'vitest';
import {
  priceNodeDays,
  unratedSplitNote,
  type NodeBillAmount,
  type PodBillAmount,
} from '../../../src/checks/kubernetes/priced-node-days.js';
import type { FxRates } from '../../../src/domain/fx.js';

// The one rule for a node-day's bill in several currencies, with amounts worked by hand.

const FX: FxRates = { base: 'USD', rates: { JPY: 0.0067 } };
const lineOf = (day: string, currency: string, cost: number, hours: number | null = null): NodeBillAmount => ({
  nodeInstanceId: 'i-1',
  day,
  currency,
  period: day.slice(0, 7),
  cost,
  hours,
});
const podOf = (day: string, pod: string, currency: string, cost: number): PodBillAmount => ({
  nodeInstanceId: 'i-1',
  day,
  currency,
  period: day.slice(0, 7),
  cost,
  namespace: 'cv',
  pod,
});

describe('priceNodeDays', () => {
  it('reckons a node-day billed in one currency in that currency, with no rate needed', () => {
    const priced = priceNodeDays([lineOf('2026-11-01', 'EUR', 90, 24)], [podOf('2026-11-01', 'a-0', 'EUR', 60)], FX);
    expect(priced.billed).toEqual([{ nodeInstanceId: 'i-1', day: '2026-11-01', cost: 90, hours: 24 }]);
    expect(priced.pods.map((p) => p.cost)).toEqual([60]);
    expect(priced.unrated).toEqual([]);
  });

  it('converts a node-day in two currencies at the rates, into the base or the asked currency', () => {
    const lines = [lineOf('2026-11-01', 'USD', 200, 24), lineOf('2026-11-01', 'JPY', 6000)];
    const pods = [podOf('2026-11-01', 'a-0', 'JPY', 3000), podOf('2026-11-01', 'b-0', 'USD', 10)];
    const priced = priceNodeDays(lines, pods, FX, 'USD');
    expect(priced.billed[0]!.cost).toBeCloseTo(200 + 6000 * 0.0067, 9);
    expect(priced.billed[0]!.hours).toBe(24);
    expect(priced.pods.map((p) => p.cost)).toEqual([3000 * 0.0067, 10]);
  });

  it('keeps the estimate on the node-day with an amount no rate converts, and on that node-day only', () => {
    const lines = [lineOf('2026-11-01', 'USD', 200, 24), lineOf('2026-11-01', 'EUR', 40), lineOf('2026-11-02', 'USD', 200, 24)];
    const pods = [podOf('2026-11-01', 'a-0', 'USD', 50), podOf('2026-11-02', 'a-0', 'USD', 50), podOf('2026-11-02', 'b-0', 'JPY', 3000)];
    const priced = priceNodeDays(lines, pods, FX, 'USD');
    expect(priced.unrated).toEqual([{ nodeInstanceId: 'i-1', day: '2026-11-01', currencies: ['EUR'] }]);
    expect(priced.pods.map((p) => p.day)).toEqual(['2026-11-02', '2026-11-02']);
    // The euro line is left out of the day's cost and named; its day still counts the dollar line's hours.
    expect(priced.billed).toEqual([
      { nodeInstanceId: 'i-1', day: '2026-11-01', cost: 200, hours: 24 },
      { nodeInstanceId: 'i-1', day: '2026-11-02', cost: 200, hours: 24 },
    ]);
    expect(priced.missing).toEqual(['EUR']);
  });
});

describe('unratedSplitNote', () => {
  it('names the currencies, a few nodes with their days, and counts the rest', () => {
    const days = (node: string, ...ds: string[]) => ds.map((day) => ({ nodeInstanceId: node, day, currencies: ['EUR'] }));
    const note = unratedSplitNote(
      [
        ...days('i-1', '2026-11-01', '2026-11-03'),
        ...days('i-2', '2026-11-02'),
        ...days('i-3', '2026-11-02'),
        ...days('i-4', '2026-11-02'),
      ],
      'USD',
    );
    expect(note).toBe(
      "5 node-day(s) split over pods by the bill keep burnrate's estimate: amounts in EUR have no rate to USD " +
        '(i-1 on 2 days from 2026-11-01 to 2026-11-03; i-2 on 2026-11-02; i-3 on 2026-11-02; 1 more node(s)). Add it under fx in burnrate.yml.',
    );
    expect(unratedSplitNote([], 'USD')).toBeNull();
  });
});
