import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WasteDiagnosis } from '../../src/domain/waste.js';
import { teamResolver } from '../../src/domain/ownership.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { dayIntervals, demoFleet } from '../../src/providers/demo/demo-fleet.js';
import { demoInventory } from '../../src/providers/demo/demo-inventory.js';
import type { DemoInstance } from '../../src/providers/demo/demo-instance.js';
import { cli, workDir } from '../support/run-cli.js';

/**
 * The demo's story, told by its own source comments and README, checked against `burnrate waste`:
 * every figure expected here is computed from the demo's own schedule and prices (the hours each
 * instance ran idle, its hourly price), never from burnrate's output.
 */

const T = '2026-11-18T06:00:00Z';
const MONTH = { start: '2026-10-01', days: 31 };
const config = demoConfig();
const seed = config.sources.flatMap((s) => (s.type === 'demo' ? [s.seed] : []))[0]!;
const fleet = demoFleet(seed);
const teamOf = new Map(demoInventory(seed, teamResolver(config.teams), { fleet }).map((i) => [i.instanceId, i.team]));
const byName = (name: string) => fleet.find((i) => i.name === name)!;
const monthDays = Array.from({ length: MONTH.days }, (_, d) =>
  new Date(Date.parse(`${MONTH.start}T00:00:00Z`) + d * 86_400_000).toISOString().slice(0, 10),
);

/** The instance's idle stretches in October, joined across midnight, of at least the idle policy's minimum. */
function idleStretches(instance: DemoInstance, minHours: number): number[] {
  const stretches: { start: number; end: number }[] = [];
  monthDays.forEach((day, d) => {
    for (const i of dayIntervals(instance, day)) {
      if (i.activity !== 'idle') continue;
      const start = d * 24 + i.start;
      const last = stretches.at(-1);
      if (last && Math.abs(last.end - start) < 1e-6) last.end = d * 24 + i.end;
      else stretches.push({ start, end: d * 24 + i.end });
    }
  });
  return stretches.map((s) => s.end - s.start).filter((hours) => hours >= minHours);
}

/**
 * The waste report reads GPU metrics at one sample every 5 minutes and counts a sample by where it
 * starts: each idle stretch it sees may gain or lose up to one sample at either end.
 */
const SAMPLE_HOURS = 5 / 60;

/** A team's idle GPU cost in October: idle hours × what an hour of the instance costs on the bill, and the sampling's slack. */
function idleCost(team: string): { cost: number; slack: number } {
  const minHours = config.gpu.idle.minIdleMinutes / 60;
  let cost = 0;
  let slack = 0;
  for (const instance of fleet.filter((i) => teamOf.get(i.instanceId) === team)) {
    const stretches = idleStretches(instance, minHours);
    cost += stretches.reduce((h, hours) => h + hours, 0) * instance.effectiveHourly;
    slack += stretches.length * 2 * SAMPLE_HOURS * instance.effectiveHourly;
  }
  return { cost, slack };
}

/** The dollar figure a first action names: "... ($1,234.56 a month) ...". */
const amountIn = (text: string | undefined) => Number(/\(\$([\d,.]+) a month\)/.exec(text ?? '')?.[1]?.replace(/,/g, '') ?? NaN);

describe("burnrate waste tells the demo organisation's story", () => {
  it('idle boxes, idle notebooks, the spot candidate, the oversized notebook and the plan land where the story says', async () => {
    const cwd = workDir();
    const result = await cli(['waste', '--month', '2026-10', '--json', '--db', join(cwd, 'burnrate.db')], { cwd, now: T });
    expect(result.err).toBe('');
    const diagnosis = JSON.parse(result.out) as WasteDiagnosis;
    const team = (id: string) => diagnosis.teams.find((t) => t.team === id)!;
    const category = (id: string, cause: string) => team(id).categories.find((c) => c.id === cause)!;

    // Each team's idle GPUs: its notebooks left on overnight or over the weekend, training runs that
    // finished with the machine left up, and its forgotten box, at the hours the demo ran them idle.
    for (const id of ['llm-training', 'ml-research', 'inference', 'vision']) {
      const expected = idleCost(id);
      expect(expected.cost, id).toBeGreaterThan(0);
      expect(Math.abs(category(id, 'idle').monthly - expected.cost), id).toBeLessThanOrEqual(expected.slack);
    }

    // The forgotten boxes idle all month: each is its team's largest idle line, its whole month's price.
    for (const [id, name] of [
      ['ml-research', 'research-legacy-v100'],
      ['inference', 'serve-rerank'],
      ['vision', 'cv-demo-endpoint'],
    ] as const) {
      const action = category(id, 'idle').firstAction?.text;
      expect(action, id).toContain(`Stop ${name} `);
      expect(amountIn(action), name).toBeCloseTo(24 * MONTH.days * byName(name).hourlyPrice, 1);
    }
    // The untagged box nobody owns is the organisation's largest idle line, and no team's.
    const orgIdle = diagnosis.organisation.categories.find((c) => c.id === 'idle')!.firstAction?.text;
    expect(orgIdle).toContain('Stop tmp-debug-box ');
    expect(amountIn(orgIdle)).toBeCloseTo(24 * MONTH.days * byName('tmp-debug-box').hourlyPrice, 1);

    // The pre-training run's nodes are one multi-node run: no spot advice on any of them, so
    // llm-training's immediate saving is its idle and stalled GPUs (the hung GCP node), no spot.
    const llm = team('llm-training');
    expect(category('llm-training', 'spot-ready').monthly).toBe(0);
    expect(llm.immediate).toBeCloseTo(category('llm-training', 'idle').monthly + category('llm-training', 'stalled').monthly, 2);
    expect(JSON.stringify(diagnosis)).not.toMatch(/Approve spot migration for llm-pretrain-node/);
    expect(diagnosis.commitments.alwaysOn.find((a) => a.name === 'llm-pretrain-node-0')?.spotSaving ?? null).toBeNull();

    // ml-research's spot candidate is research-train-fra; dan-notebook is llm-training's oversized notebook.
    expect(category('ml-research', 'spot-ready').firstAction?.text).toContain('research-train-fra');
    expect(category('llm-training', 'oversized').firstAction?.text).toContain('dan-notebook');

    // The Savings Plan: two of the run's three nodes' hours at the committed rate, every hour; unused
    // exactly while the run was stopped, as the run's own schedule says.
    const nodes = fleet.filter((i) => i.name.startsWith('llm-pretrain-node-'));
    const hourlyCommitment = nodes.filter((i) => i.pricing === 'Committed').reduce((s, i) => s + i.effectiveHourly, 0);
    const ranHours = monthDays.reduce((h, day) => h + dayIntervals(nodes[0]!, day).reduce((s, i) => s + i.end - i.start, 0), 0);
    const unused = hourlyCommitment * (24 * MONTH.days - ranHours);
    expect(unused).toBeGreaterThan(0);
    expect(category('llm-training', 'unused-commitment').monthly).toBeCloseTo(unused, 1);
    const [plan] = diagnosis.commitments.commitments;
    expect(plan!.unusedMonthly).toBeCloseTo(unused, 1);
    expect(plan!.usedMonthly).toBeCloseTo(hourlyCommitment * ranHours, 1);
    expect(plan!.utilisation).toBeCloseTo(ranHours / (24 * MONTH.days), 4);
  });
});
