import { describe, expect, it } from 'vitest';
import { showback } from '../../../src/checks/review/showback.js';
import type { InvoiceLine } from '../../../src/domain/invoice-line.js';
import { teamSchema } from '../../../src/config/schema.js';

// A month's bill of two providers, worked out by hand below each expectation.

const line = (over: Partial<InvoiceLine>): InvoiceLine => ({
  team: 'a',
  ownerTag: 'a',
  provider: 'AWS',
  chargeCategory: 'Usage',
  kind: 'usage',
  hasResource: true,
  commitmentId: null,
  commitmentStatus: null,
  currency: 'USD',
  billed: 0,
  effective: 0,
  ...over,
});

const BILL: InvoiceLine[] = [
  // AWS: a covered by the Savings Plan sp-1 for 300, b for 100; a also 600 on demand.
  line({ team: 'a', commitmentId: 'sp-1', commitmentStatus: 'Used', billed: 0, effective: 300 }),
  line({ team: 'b', ownerTag: 'b', commitmentId: 'sp-1', commitmentStatus: 'Used', billed: 0, effective: 100 }),
  line({ team: 'a', billed: 600, effective: 600 }),
  // The plan's purchase, billed upfront and amortised; 40 of it went unused.
  line({
    team: '(untagged)',
    ownerTag: null,
    chargeCategory: 'Purchase',
    kind: 'one-time',
    hasResource: false,
    commitmentId: 'sp-1',
    billed: 1200,
    effective: 0,
  }),
  line({
    team: '(untagged)',
    ownerTag: null,
    commitmentId: 'sp-1',
    commitmentStatus: 'Unused',
    hasResource: false,
    billed: 0,
    effective: 40,
  }),
  // AWS tax and support, nobody's: shared by AWS spend (a 900, b 100).
  line({ team: '(untagged)', ownerTag: null, chargeCategory: 'Tax', hasResource: false, billed: 50, effective: 50 }),
  line({
    team: '(untagged)',
    ownerTag: null,
    chargeCategory: 'Purchase',
    kind: 'recurring',
    hasResource: false,
    billed: 30,
    effective: 30,
  }),
  // Google Cloud: only c spends there, so Google's tax is c's alone.
  line({ team: 'c', ownerTag: 'c', provider: 'Google Cloud', billed: 200, effective: 200 }),
  line({
    team: '(untagged)',
    ownerTag: null,
    provider: 'Google Cloud',
    chargeCategory: 'Tax',
    hasResource: false,
    billed: 20,
    effective: 20,
  }),
  // A tag naming a team that is not configured, and untagged usage.
  line({ team: '(unmapped)', ownerTag: 'vision', billed: 70, effective: 70 }),
  line({ team: '(untagged)', ownerTag: null, billed: 80, effective: 80 }),
];
const TEAMS = ['a', 'b', 'c'].map((id) => teamSchema.parse({ id }));

describe('showback that ties to the invoice', () => {
  it('charges each kind of cost to whom it belongs and adds up to the bill, to the cent', () => {
    const result = showback(BILL, TEAMS);
    const team = (id: string) => result.lines.find((l) => l.team === id)!;
    // a: direct 900; AWS shared 80 × 900/1000 = 72; unused 40 × 300/400 = 30.
    expect(team('a')).toMatchObject({ direct: 900, shared: 72, commitment: 30, total: 1002 });
    // b: direct 100; shared 80 × 100/1000 = 8; unused 40 × 100/400 = 10.
    expect(team('b')).toMatchObject({ direct: 100, shared: 8, commitment: 10, total: 118 });
    // c: direct 200 and all of Google's tax (20), none of AWS's.
    expect(team('c')).toMatchObject({ direct: 200, shared: 20, commitment: 0, total: 220 });
    expect(result.organisation).toEqual([
      { key: '(unmapped: vision)', amount: 70, note: "add team vision to burnrate.yml (or to a team's match list)" },
      { key: '(unallocated)', amount: 80, note: 'no owner tag: tag these resources' },
    ]);
    const effective = BILL.reduce((s, l) => s + l.effective, 0);
    const billed = BILL.reduce((s, l) => s + l.billed, 0);
    expect(result.total).toBe(effective);
    expect(1002 + 118 + 220 + 70 + 80).toBe(effective);
    // billed 2,250 = shown 1,490 + purchase 1,200 + unused −40 + covered usage −400: no rounding plug.
    expect(result.reconciliation).toEqual({ billed, effective, purchases: 1200, unusedCommitment: -40, amortisedUsage: -400 });
    // Tagged: everything but the 80 untagged of 1,350 taggable (shared costs and unused left out).
    expect(result.coverage).toBeCloseTo((1350 - 80) / 1350, 12);
  });

  it('charges the unused commitment to its owner when one is set', () => {
    const result = showback(BILL, TEAMS, { commitmentOwner: 'c' });
    expect(result.lines.find((l) => l.team === 'c')?.commitment).toBe(40);
    expect(result.lines.find((l) => l.team === 'a')?.commitment).toBe(0);
  });

  it('splits in whole cents that add up exactly', () => {
    // 10.00 of tax over three equal spenders: 3.34 + 3.33 + 3.33.
    const lines = [
      line({ team: 'a', effective: 1 }),
      line({ team: 'b', ownerTag: 'b', effective: 1 }),
      line({ team: 'c', ownerTag: 'c', effective: 1 }),
      line({ team: '(untagged)', ownerTag: null, chargeCategory: 'Tax', hasResource: false, effective: 10 }),
    ];
    const shares = showback(lines, TEAMS).lines.map((l) => l.shared);
    expect(shares.reduce((s, x) => s + x, 0)).toBeCloseTo(10, 10);
    expect([...shares].sort()).toEqual([3.33, 3.33, 3.34]);
  });
});

describe('showback rounding, coverage and empty lines', () => {
  const many = ['big', 's1', 's2', 's3', 's4', 's5', 's6', 'idle'].map((id) => teamSchema.parse({ id }));

  it('never charges the drift of rounding to the largest team: each line within a cent of its exact amount', () => {
    // Six teams at $10.004 and one at $1,000.00: rounded one by one they lose 2.4 cents of the
    // $1,060.024 bill. The statement must still add up to $1,060.02, with no team moved a cent.
    const lines = [
      line({ team: 'big', ownerTag: 'big', effective: 1000, billed: 1000 }),
      ...['s1', 's2', 's3', 's4', 's5', 's6'].map((team) => line({ team, ownerTag: team, effective: 10.004, billed: 10.004 })),
    ];
    const result = showback(lines, many);
    const exact = new Map(lines.map((l) => [l.team, l.effective]));
    for (const l of result.lines) expect(Math.abs(l.total - exact.get(l.team)!)).toBeLessThan(0.01);
    expect(result.lines.find((l) => l.team === 'big')!.total).toBe(1000);
    const sum = lines.reduce((s, l) => s + l.effective, 0);
    expect(result.lines.reduce((s, l) => s + Math.round(l.total * 100), 0)).toBe(Math.round(sum * 100));
  });

  it('spreads shared costs to the cent without moving any team by a cent', () => {
    // $100.00 of tax over spend of 1, 1, 1 and 997: exact shares 0.1, 0.1, 0.1 and 99.7.
    const spend = { big: 997, s1: 1, s2: 1, s3: 1 } as Record<string, number>;
    const lines = [
      ...Object.entries(spend).map(([team, amount]) => line({ team, ownerTag: team, effective: amount, billed: amount })),
      line({ team: '(untagged)', ownerTag: null, chargeCategory: 'Tax', hasResource: false, effective: 100.01, billed: 100.01 }),
    ];
    const result = showback(lines, many);
    for (const l of result.lines) {
      const exact = spend[l.team]! + (100.01 * spend[l.team]!) / 1000;
      expect(Math.abs(l.total - exact)).toBeLessThan(0.01);
      expect(Math.round(l.direct * 100) + Math.round(l.shared * 100)).toBe(Math.round(l.total * 100));
    }
    const bill = lines.reduce((s, l) => s + l.effective, 0);
    expect(result.lines.reduce((s, l) => s + Math.round(l.total * 100), 0)).toBe(Math.round(bill * 100));
  });

  it('reports coverage of the charges, never above 100%, with untagged credits in the bill', () => {
    // Tagged usage 100 and an untagged credit of −50: all charges are tagged.
    const credit = line({ team: '(untagged)', ownerTag: null, chargeCategory: 'Credit', kind: 'one-time', effective: -50, billed: -50 });
    const tagged = line({ team: 'big', ownerTag: 'big', effective: 100, billed: 100 });
    expect(showback([tagged, credit], many).coverage).toBe(1);
    // With 25 of untagged usage besides: 100 of the 125 charged.
    const untagged = line({ team: '(untagged)', ownerTag: null, effective: 25, billed: 25 });
    expect(showback([tagged, credit, untagged], many).coverage).toBeCloseTo(100 / 125, 12);
  });

  it('lists no line of $0.00: teams without spend and organisation lines that round to nothing', () => {
    const lines = [
      line({ team: 'big', ownerTag: 'big', effective: 12.5, billed: 12.5 }),
      line({ team: '(unmapped)', ownerTag: 'ghost', effective: 0.004, billed: 0.004 }),
      line({ team: 's1', ownerTag: 's1', effective: 5, billed: 5 }),
      line({ team: 's1', ownerTag: 's1', chargeCategory: 'Credit', kind: 'one-time', effective: -5, billed: -5 }),
    ];
    const result = showback(lines, many);
    expect(result.lines.map((l) => [l.team, l.total])).toEqual([['big', 12.5]]);
    expect(result.organisation).toEqual([]);
    expect(result.total).toBe(12.5);
  });
});
