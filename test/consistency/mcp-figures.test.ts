import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendReport } from '../../commands/spend.js';
import { daysOf, monthOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { formatMoney } from '../../src/domain/money.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { listBudgets } from '../../src/snapshots/budget-listing.js';
import { spendSummary } from '../../templates/spend-summary.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { cli, workDir } from '../support/run-cli.js';
import { spendRow, testDeps } from '../support/deps.js';
import { expectClose as close, inUsd, yenStorageLine, YEN_RATE } from '../support/yen-bill.js';

// One fact, one figure, for an assistant too: the MCP tools' figures for a team's month are the
// spend command's in chat, the CLI's JSON and the budget listing's, and each equals a plain sum over
// the rows written here (two currencies, the yen billed at a different rate each month).
// explain_figure tells how: its parts are these rows per currency and billing period, at their rates.

const NOW = '2026-12-10T09:00:00Z';
const DAYS = daysOf({ start: '2026-10-01', end: '2026-12-10' });
const VERA = 'U0VERA';

const CONFIG = {
  fx: { base: 'USD' },
  teams: [
    { id: 'vision', name: 'Computer Vision', owners: [VERA], budget: { monthly: 3000, currency: 'USD', thresholds: [50, 80, 100] } },
    { id: 'ml', name: 'ML Research', owners: ['U0MLOWNER'], budget: { monthly: 10_000, currency: 'USD', thresholds: [80, 100] } },
  ],
};

function bill(): SpendRow[] {
  return DAYS.flatMap((day) => [
    { ...spendRow('vision', day, 40), resourceId: 'i-trainer' },
    { ...yenStorageLine('vision', day, 30_000), billingAccount: 'jp-1' },
    spendRow('ml', day, 100),
  ]);
}

/** The rows of `team` in [start, end). */
const rowsOf = (team: string, start: string, end: string) => bill().filter((r) => r.team === team && r.day >= start && r.day < end);
/** A plain sum over them, each converted at its own month's rate. */
const sumOf = (rows: SpendRow[]) => rows.reduce((sum, r) => sum + inUsd(r), 0);

describe("an assistant's figures are the same as every other surface's", () => {
  const cwd = workDir();
  const db = join(cwd, 'burnrate.db');
  const { deps } = testDeps(CONFIG, NOW, db);
  const client = new Client({ name: 'consistency', version: '1.0.0' });

  beforeAll(async () => {
    writeFileSync(join(cwd, 'burnrate.yml'), JSON.stringify(CONFIG));
    await deps.store.importBatches([
      { scope: { source: 'test', billingPeriods: ['2026-10', '2026-11', '2026-12'] }, rows: bill(), dataThrough: '2026-12-10T00:00:00Z' },
    ]);
    // The SDK's own client, speaking to the server as Vera, the owner of vision.
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    await createMcpServer(deps, VERA).connect(ours);
    await client.connect(theirs);
    await client.listTools();
  });
  afterAll(async () => {
    await client.close();
    await deps.store.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result;
  };
  const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

  it("last month: spend and explain_figure equal the chat answer, the CLI's JSON and a plain sum, yen at November's rate", async () => {
    const november = monthOf('2026-11-01');
    const rows = rowsOf('vision', november.start, november.end);
    const expected = sumOf(rows);
    close(expected, 30 * (40 + 30_000 * 0.0067));

    const spend = await call('spend', { team: 'vision', period: '2026-11' });
    close((spend.structuredContent as { total: { effective: number } }).total.effective, expected);
    expect(textOf(spend)).toContain(formatMoney(expected, 'USD'));
    const chat = renderPlainText(spendSummary(await spendReport(deps, { period: november, by: 'service', team: 'vision' }), 'vision'));
    expect(chat).toContain(formatMoney(expected, 'USD'));
    const json = JSON.parse((await cli(['spend', '--db', db, '--team', 'vision', '--period', '2026-11', '--json'], { cwd, now: NOW })).out);
    close(json.total.effective, expected);

    const explained = (await call('explain_figure', { figure: 'spend', team: 'vision', period: '2026-11' })).structuredContent as {
      value: { effective: number };
      currency: string;
      rows: number;
      parts: { currency: string; billingPeriod: string; rows: number; effective: number; rate: number; adds: { effective: number } }[];
    };
    close(explained.value.effective, expected);
    expect(explained.currency).toBe('USD');
    expect(explained.rows).toBe(rows.length);
    expect(explained.parts.map((p) => [p.billingPeriod, p.currency, p.rows, p.rate])).toEqual([
      ['2026-11', 'JPY', 30, YEN_RATE['2026-11']],
      ['2026-11', 'USD', 30, 1],
    ]);
    close(explained.parts.find((p) => p.currency === 'JPY')!.effective, 30 * 30_000);
    close(
      explained.parts.reduce((sum, p) => sum + p.adds.effective, 0),
      expected,
    );
  });

  it("this month so far: spend, budgets and explain_figure equal the budget listing and a plain sum; another team's figure is refused", async () => {
    const december = monthOf('2026-12-01');
    const rows = rowsOf('vision', december.start, '2026-12-10');
    const expected = sumOf(rows);
    close(expected, 9 * (40 + 30_000 * 0.0065));

    close(((await call('spend', { team: 'vision' })).structuredContent as { total: { effective: number } }).total.effective, expected);
    const budgets = (await call('budgets', { team: 'vision' })).structuredContent as {
      budgets: { team: string; name: string; actual: number }[];
    };
    const listing = await listBudgets(deps, deps.clock());
    close(budgets.budgets.find((b) => b.name === 'monthly')?.actual, expected);
    close(listing.budgets.find((b) => b.team === 'vision' && b.name === 'monthly')?.actual, expected);

    const explained = (await call('explain_figure', { team: 'vision' })).structuredContent as {
      value: { effective: number };
      rows: number;
      read: { start: string; end: string };
    };
    close(explained.value.effective, expected);
    expect(explained.rows).toBe(rows.length);
    expect(explained.read).toEqual({ start: '2026-12-01', end: '2026-12-10' });

    const refused = (await client.callTool({ name: 'explain_figure', arguments: { team: 'ml' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('you are not a member of team "ml"');
  });
});
