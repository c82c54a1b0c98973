import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { daysOf, weekdayOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { FakePrometheus } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { spendRow, testDeps } from '../support/deps.js';
import { cli, workDir } from '../support/run-cli.js';
import { dcgmHostGpu, ec2GpuMachine } from '../support/waste-fleet.js';
import { expectClose, inUsd, YEN_RATE, yenStorageLine } from '../support/yen-bill.js';

// explain_figure for the budget and the waste diagnosis: each explanation's figure is the one the
// CLI's --json gives for the same question, its parts add up to it, and the figure is
// a plain sum over the rows this test wrote.

const VERA = 'U0VERA';
const close = expectClose;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The SDK's own client, speaking to the server as `user`. */
async function connect(deps: Deps, user: string) {
  const client = new Client({ name: 'explain-figures', version: '1.0.0' });
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await createMcpServer(deps, user).connect(ours);
  await client.connect(theirs);
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const ok = async (name: string, args: Record<string, unknown>) => {
    const result = await call(name, args);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result;
  };
  return { client, call, ok };
}
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe("the budget's spent figure and forecast, explained by the forecast the budget alert makes", () => {
  const NOW = '2026-12-10T09:00:00Z';
  const DAYS = daysOf({ start: '2026-10-01', end: '2026-12-10' });
  const SPIKE = '2026-11-18';
  const CONFIG = {
    fx: { base: 'USD' },
    teams: [
      { id: 'vision', owners: [VERA], budget: { monthly: 4000, currency: 'USD', thresholds: [80, 100] } },
      { id: 'ml', owners: ['U0MLOWNER'], budget: { monthly: 10_000, currency: 'USD', thresholds: [100] } },
    ],
  };
  /** A working week of $120 a day and weekends of $30, a runaway job of $3,000 once, and annotation storage billed in yen. */
  const bill = (): SpendRow[] =>
    DAYS.flatMap((day) => {
      const weekend = [0, 6].includes(weekdayOf(day));
      return [
        { ...spendRow('vision', day, (weekend ? 30 : 120) + (day === SPIKE ? 3000 : 0)), resourceId: 'i-trainer' },
        yenStorageLine('vision', day, 5000),
        spendRow('ml', day, 300),
      ];
    });

  const cwd = workDir();
  const db = join(cwd, 'burnrate.db');
  const { deps } = testDeps(CONFIG, NOW, db);
  let mcp: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    writeFileSync(join(cwd, 'burnrate.yml'), JSON.stringify(CONFIG));
    await deps.store.importBatches([
      { scope: { source: 'test', billingPeriods: ['2026-10', '2026-11', '2026-12'] }, rows: bill(), dataThrough: '2026-12-10T00:00:00Z' },
    ]);
    mcp = await connect(deps, VERA);
  });
  afterAll(async () => {
    await mcp.client.close();
    await deps.store.close();
  });

  interface Explained {
    budgets: {
      team: string;
      cadence: string;
      spent: { value: number; read: { start: string; end: string }; days: { day: string; amount: number }[] };
      forecast: {
        value: number;
        method: string;
        range: { low: number; high: number };
        remainingDays: number;
        fitted: { kind: string } | null;
        unusual: { day: string; offBy: number }[];
        parts: Record<string, number>;
      };
    }[];
  }

  it("spent is December's rows added up, the forecast is `budgets --json`'s, and its parts add up to it with the runaway day left out", async () => {
    const december = bill().filter((r) => r.team === 'vision' && r.day >= '2026-12-01');
    const expected = sum(december.map(inUsd));
    close(expected, 7 * 120 + 2 * 30 + 9 * 5000 * YEN_RATE['2026-12']!);

    const result = await mcp.ok('explain_figure', { figure: 'budget', team: 'vision' });
    const [monthly] = (result.structuredContent as unknown as Explained).budgets;
    expect(monthly!.team).toBe('vision');
    expect(monthly!.cadence).toBe('monthly');
    // Spent: the figure, its days, and the plain sum agree.
    close(monthly!.spent.value, expected);
    expect(monthly!.spent.read).toEqual({ start: '2026-12-01', end: '2026-12-10' });
    expect(monthly!.spent.days.map((d) => d.day)).toEqual(daysOf({ start: '2026-12-01', end: '2026-12-10' }));
    close(sum(monthly!.spent.days.map((d) => d.amount)), expected);

    // The CLI's figures for the same question.
    const json = JSON.parse((await cli(['budgets', '--db', db, '--team', 'vision', '--json'], { cwd, now: NOW })).out) as {
      budgets: { name: string; actual: number; forecast: number }[];
    };
    const line = json.budgets.find((b) => b.name === 'monthly')!;
    close(monthly!.spent.value, line.actual);
    close(monthly!.forecast.value, line.forecast);

    // The forecast: spent plus its parts ahead; the range around it; the runaway job fitted at its usual.
    const f = monthly!.forecast;
    close(sum(Object.values(f.parts)), f.value);
    close(f.parts.spent!, expected);
    expect(f.remainingDays).toBe(daysOf({ start: '2026-12-10', end: '2027-01-01' }).length);
    expect(f.range.low).toBeLessThanOrEqual(f.value);
    expect(f.range.high).toBeGreaterThanOrEqual(f.value);
    expect(f.fitted).not.toBeNull();
    expect(f.method).toContain('unusual day');
    expect(f.unusual.map((u) => u.day)).toEqual([SPIKE]);
    close(f.unusual[0]!.offBy, 3000, 1);
    // Usage ahead is about 22 days of this team's week, not lifted by the spike.
    const week = 5 * (120 + 5000 * YEN_RATE['2026-12']!) + 2 * (30 + 5000 * YEN_RATE['2026-12']!);
    close(f.parts.usageAhead!, (22 / 7) * week, 0.1 * week);
    expect(textOf(result)).toContain(`Left out as unusual`);
  });

  it('refuses arguments that do not fit the figure, another team, and an unknown figure', async () => {
    const misfit = await mcp.call('explain_figure', { figure: 'budget', team: 'vision', basis: 'invoice' });
    expect(misfit.isError).toBe(true);
    expect(textOf(misfit)).toContain('"basis" does not apply to the budget figure');
    expect(textOf(misfit)).toContain('budget takes team and cadence');
    const other = await mcp.call('explain_figure', { figure: 'budget', team: 'ml' });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toContain('you are not a member of team "ml"');
    const unknown = await mcp.call('explain_figure', { figure: 'forecast; DROP TABLE budgets' });
    expect(unknown.isError).toBe(true);
    const weekly = await mcp.ok('explain_figure', { figure: 'budget', team: 'vision', cadence: 'weekly' });
    expect((weekly.structuredContent as unknown as Explained).budgets).toEqual([]);
  });
});

describe("the waste diagnosis' causes, explained by the instances, hours and rates that make them", () => {
  // Two whole days, [16 Nov, 18 Nov), asked on the 18th: figures a month are the two days × MONTH.
  const NOW = '2026-11-18T06:00:00Z';
  const DAYS = ['2026-11-16', '2026-11-17'];
  const START = Date.parse(`${DAYS[0]}T00:00:00Z`) / 1000;
  const MONTH = 365.25 / 12 / 2;
  const NOTEBOOK = 'i-0a00000000000000a'; // vision: idle its first 12 of 48 hours, $50 a day
  const TRAINER = 'i-0b00000000000000b'; // nlp: checkpointed training on demand, busy, $24 a day
  const DAILY: Record<string, { team: string; amount: number }> = {
    [NOTEBOOK]: { team: 'vision', amount: 50 },
    [TRAINER]: { team: 'nlp', amount: 24 },
  };
  const bill = (): SpendRow[] =>
    DAYS.flatMap((day) => Object.entries(DAILY).map(([id, { team, amount }]) => ({ ...spendRow(team, day, amount), resourceId: id })));
  const first12h = (t: number) => t < START + 12 * 3600;
  const ADMIN = 'U0ADMIN';

  let ec2: FakeEc2 | undefined;
  let prom: FakePrometheus | undefined;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all([ec2?.close(), prom?.close()]);
  });

  it("vision's idle cause is its notebook's 12 idle of 48 GPU-hours at the bill's rate, the CLI's figure and a plain sum", async () => {
    isolateAwsEnv();
    ec2 = await FakeEc2.start({
      instances: [
        ec2GpuMachine(NOTEBOOK, 'ip-10-0-1-11', 'g5.xlarge', { team: 'vision', workload: 'notebook' }),
        ec2GpuMachine(TRAINER, 'ip-10-0-1-12', 'g4dn.xlarge', {
          team: 'nlp',
          workload: 'training',
          checkpoint: 'true',
          'checkpoint-interval': '15m',
        }),
      ],
    });
    prom = await FakePrometheus.start({
      gpus: [
        dcgmHostGpu(
          'ip-10-0-1-11',
          (t) => (first12h(t) ? 0 : 97),
          (t) => (first12h(t) ? 0 : 20_000),
        ),
        dcgmHostGpu(
          'ip-10-0-1-12',
          () => 97,
          () => 12_000,
        ),
      ],
    });
    useEc2Endpoint(ec2.endpoint);
    const config = {
      admins: [ADMIN],
      teams: [
        { id: 'vision', owners: [VERA] },
        { id: 'nlp', owners: ['U0NLP'] },
      ],
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prom.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
    };
    const cwd = workDir();
    const db = join(cwd, 'burnrate.db');
    writeFileSync(join(cwd, 'burnrate.yml'), JSON.stringify(config));
    const { deps } = testDeps(config, NOW, db);
    deps.gpu = buildGpuDeps(deps.config, {})!;
    await deps.store.importBatches([{ scope: { source: 'test', billingPeriods: ['2026-11'] }, rows: bill(), dataThrough: null }]);
    const mcp = await connect(deps, VERA);
    try {
      // The independent figure: the notebook's two days on the bill, a quarter of its hours idle, a month.
      const billed = sum(
        bill()
          .filter((r) => r.resourceId === NOTEBOOK)
          .map((r) => r.effective),
      );
      const idleMonthly = Math.round(((billed * 12) / 48) * MONTH * 100) / 100;

      const explained = (await mcp.ok('explain_figure', { figure: 'waste', team: 'vision', days: 2 })).structuredContent as {
        period: { start: string; end: string };
        teams: {
          team: string;
          gpuSpend: number;
          categories: { id: string; monthly: number; parts: Record<string, number | string>[] }[];
        }[];
      };
      expect(explained.period).toMatchObject({ start: '2026-11-16', end: '2026-11-18' });
      // Vera sees her team's rows only: no organisation, no nlp.
      expect(explained.teams.map((t) => t.team)).toEqual(['vision']);
      const [vision] = explained.teams;
      const idle = vision!.categories.find((c) => c.id === 'idle')!;
      expect(idle.monthly).toBe(idleMonthly);
      expect(idle.parts).toHaveLength(1);
      const [part] = idle.parts as {
        instanceId: string;
        hours: number;
        observedHours: number;
        rate: number;
        share: number;
        amount: number;
        monthly: number;
      }[];
      expect(part).toMatchObject({ instanceId: NOTEBOOK, hours: 12, observedHours: 48, share: 1 });
      close(part!.rate, billed / 48);
      close(part!.amount, part!.hours * part!.rate * part!.share);
      // Every cause's parts add up to it, to the cent.
      for (const c of vision!.categories)
        expect(Math.round(sum(c.parts.map((p) => p.monthly as number)) * 100), c.id).toBe(Math.round(c.monthly * 100));

      // The CLI's figures for the same question.
      const cliWaste = await cli(['waste', '--days', '2', '--json', '--db', db], { cwd, now: NOW });
      expect(cliWaste.code, cliWaste.err).toBe(0);
      const waste = JSON.parse(cliWaste.out) as {
        teams: { team: string; gpuSpend: number; categories: { id: string; monthly: number }[] }[];
      };
      const row = waste.teams.find((t) => t.team === 'vision')!;
      expect(vision!.gpuSpend).toBe(row.gpuSpend);
      expect(vision!.categories.map((c) => [c.id, c.monthly])).toEqual(row.categories.map((c) => [c.id, c.monthly]));

      // Hostile or confused arguments: refused, saying what to write.
      const both = await mcp.call('explain_figure', { figure: 'waste', month: '2026-10', days: 2 });
      expect(both.isError).toBe(true);
      expect(textOf(both)).toContain('give a month or a number of days, not both');
      const period = await mcp.call('explain_figure', { figure: 'waste', period: 'last-month' });
      expect(textOf(period)).toContain('"period" does not apply to the waste figure');
      const far = await mcp.call('explain_figure', { figure: 'waste', days: 10_000 });
      expect(far.isError).toBe(true);
      const other = await mcp.call('explain_figure', { figure: 'waste', team: 'nlp' });
      expect(textOf(other)).toContain('you are not a member of team "nlp"');

      // An admin asking for every team sees nlp's spot cause and the organisation, each adding up the same way.
      const admin = await connect(deps, ADMIN);
      try {
        const all = (await admin.ok('explain_figure', { figure: 'waste', days: 2 })).structuredContent as typeof explained;
        expect(all.teams.map((t) => t.team)).toEqual(['vision', 'nlp', 'organisation']);
        const spot = all.teams[1]!.categories.find((c) => c.id === 'spot-ready')!;
        expect(spot.monthly).toBeGreaterThan(0);
        const [trainer] = spot.parts as { instanceId: string; hours: number; share: number; rate: number; monthly: number }[];
        expect(trainer).toMatchObject({ instanceId: TRAINER, hours: 48 });
        expect(trainer!.share).toBeGreaterThan(0);
        expect(trainer!.share).toBeLessThan(1);
        close(
          trainer!.rate,
          sum(
            bill()
              .filter((r) => r.resourceId === TRAINER)
              .map((r) => r.effective),
          ) / 48,
        );
        for (const t of all.teams)
          for (const c of t.categories)
            expect(Math.round(sum(c.parts.map((p) => p.monthly as number)) * 100), `${t.team} ${c.id}`).toBe(Math.round(c.monthly * 100));
        expect(all.teams[2]!.categories.find((c) => c.id === 'idle')!.monthly).toBe(idleMonthly);
      } finally {
        await admin.client.close();
      }
    } finally {
      await mcp.client.close();
      await deps.store.close();
    }
  });
});
