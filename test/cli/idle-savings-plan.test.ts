import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeEc2 } from '../fakes/fake-ec2.js';
import type { FakePrometheus } from '../fakes/fake-prometheus.js';
import { idleG5Project, startIdleG5s } from '../support/idle-g5-fleet.js';
import { cli } from '../support/run-cli.js';
import { HOURS_HEADER, focusCsv, type FixtureRow } from '../providers/focus/helpers.js';
import type { GpuFinding } from '../../src/domain/gpu-finding.js';
import { idleAlert, idleDetails } from '../../templates/idle-alert.js';
import type { ActionsBlock } from '../../templates/message.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { formatMoney } from '../../src/domain/money.js';

// An idle machine whose bill shows most of its hours under an EC2 Instance Savings Plan (FOCUS
// PricingCategory Committed, CommitmentDiscountId the plan's ARN): stopping it frees the plan for
// other usage, so its alert promises only the uncovered part of a day as a saving. Every expected
// figure is a plain sum over the bill rows written here.

const NOW = '2026-11-18T06:00:00Z';
const COVERED = 'i-0sp000000000000001';
const ON_DEMAND = 'i-0cd000000000000002';
const PLAN = 'arn:aws:savingsplans::123456789012:savingsplan/sp-0gpu';
const DAYS = ['2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13', '2026-11-14', '2026-11-15', '2026-11-16'];

/** A day of one machine's bill: `hours` at `cost`, under the plan when `plan` is set. */
function usage(resource: string, day: string, hours: number, cost: string, plan = false): FixtureRow {
  return {
    ResourceId: resource,
    BilledCost: cost,
    EffectiveCost: cost,
    ChargePeriodStart: `${day}T00:00:00Z`,
    ChargePeriodEnd: `${day}T23:59:59Z`,
    BillingPeriodStart: '2026-11-01T00:00:00Z',
    Tags: '{"team":"research"}',
    ConsumedQuantity: String(hours),
    ConsumedUnit: 'Hours',
    ...(plan
      ? {
          PricingCategory: 'Committed',
          CommitmentDiscountId: PLAN,
          CommitmentDiscountType: 'Savings Plan',
          CommitmentDiscountStatus: 'Used',
        }
      : {}),
  };
}

// 18 h a day at the plan's amortised rate and 6 h on demand; the other machine all day on demand.
const BILL: FixtureRow[] = DAYS.flatMap((day) => [
  usage(COVERED, day, 18, '11.52', true),
  usage(COVERED, day, 6, '6.06'),
  usage(ON_DEMAND, day, 24, '24.14'),
]);
const HEADER = [...HOURS_HEADER, 'CommitmentDiscountId', 'CommitmentDiscountType', 'CommitmentDiscountStatus'];

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  ({ ec2, prom } = await startIdleG5s([
    { id: COVERED, ip: '10.0.9.1' },
    { id: ON_DEMAND, ip: '10.0.9.2' },
  ]));
});

afterEach(async () => {
  ec2?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

function project(): string {
  const cwd = idleG5Project(prom!);
  writeFileSync(join(cwd, 'bill.csv'), focusCsv(BILL, HEADER));
  return cwd;
}

const sum = (rows: readonly FixtureRow[], column: 'EffectiveCost' | 'ConsumedQuantity') => rows.reduce((s, r) => s + Number(r[column]), 0);
const cents = (n: number) => Math.round(n * 100) / 100;

describe('burnrate idle on a Savings-Plan-covered machine', () => {
  it('says the covered share of its bill and promises only the uncovered part of a day; the on-demand one keeps its whole day', async () => {
    const cwd = project();
    expect((await cli(['import', 'focus', 'bill.csv'], { cwd })).code).toBe(0);
    const json = await cli(['idle', '--json'], { cwd, now: NOW });
    expect(json.err).toBe('');
    const findings = (JSON.parse(json.out) as { idle: GpuFinding[] }).idle;
    const covered = findings.find((f) => f.instanceId === COVERED)!;
    const onDemand = findings.find((f) => f.instanceId === ON_DEMAND)!;

    // The independent figures: the bill's rate is cost over hours; the plan's share is its rows' cost over all.
    const rows = BILL.filter((r) => r.ResourceId === COVERED);
    const rate = sum(rows, 'EffectiveCost') / sum(rows, 'ConsumedQuantity');
    const share =
      sum(
        rows.filter((r) => r.CommitmentDiscountId),
        'EffectiveCost',
      ) / sum(rows, 'EffectiveCost');
    expect(covered.perDay).toBe(cents(rate * 24));
    expect(covered.covered!.by).toBe('Savings Plan');
    expect(covered.covered!.share).toBeCloseTo(share, 9);
    expect(covered.covered!.uncoveredPerDay).toBe(cents(rate * 24 * (1 - share)));
    expect(onDemand.covered).toBeUndefined();

    // The alert promises the uncovered part and the on-demand machine's whole day, nothing of the plan's share.
    const alert = idleAlert({ teamName: 'research', items: findings.map((finding) => ({ finding })), dryRun: false, mode: 'notify' });
    const text = renderPlainText(alert);
    const money = (n: number) => formatMoney(n, 'USD');
    expect(text).toContain(`covered by a Savings Plan: stopping saves only the uncovered ${money(covered.covered!.uncoveredPerDay)}/day`);
    expect(text).not.toContain(`${money(covered.perDay)} per day`);
    expect(text).toContain(`${money(covered.covered!.uncoveredPerDay + onDemand.perDay)} per day`);
    const stop = alert.blocks
      .flatMap((b) => (b.type === 'actions' ? (b as ActionsBlock).buttons : []))
      .filter((b) => b.label === 'Stop now')
      .map((b) => b.confirm!.text);
    expect(stop).toEqual(
      expect.arrayContaining([expect.stringContaining(`saving only the uncovered ${money(covered.covered!.uncoveredPerDay)} per day`)]),
    );
    expect(renderPlainText(idleDetails(covered))).toContain(
      `${Math.round(share * 100)}% of its billed cost is covered by a Savings Plan: stopping frees the plan for other usage; it saves only the uncovered ${money(covered.covered!.uncoveredPerDay)}/day.`,
    );
  });
});
