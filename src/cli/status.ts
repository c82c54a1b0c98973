import { runtimeOf } from './runtime-of.js';
import type { OutboxItem, OutboxSummary } from '../store/outbox-records.js';
import type { Store } from '../store/store.js';
import { COMMON_OPTIONS, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.status.usage;
/** Enough failed items to act on; the count of the rest tells whether there is more. */
const FAILED_SHOWN = 20;

export interface FailedItemView {
  id: number;
  target: string;
  /** The first failed attempt: the cause was there from then on. */
  failingSince: string | null;
  attempts: number;
  lastError: string | null;
  summary: string;
}

export interface SourceView {
  source: string;
  dataThrough: string | null;
  refreshedAt: string | null;
  /** The last refresh failed: since when, and why. */
  failing: { since: string; error: string } | null;
}

export interface StatusReport {
  outbox: OutboxSummary & { oldestPendingAgeSeconds: number | null };
  failed: FailedItemView[];
  moreFailed: number;
  sources: SourceView[];
}

/** What an operator checks first: is delivery flowing, what gave up, and how fresh each source is. */
export const statusVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, json: { type: 'boolean' } }, USAGE);
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const report = await readStatus(runtime.deps.store, runtime.deps.clock());
    io.out.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
    // Status is information: failures are reported, not signalled through the exit code.
    return 0;
  } finally {
    await runtime.close();
  }
};

export async function readStatus(store: Store, now: Date): Promise<StatusReport> {
  const [summary, failed, fresh, failures] = await Promise.all([
    store.outbox.summary(),
    store.outbox.failed(FAILED_SHOWN),
    store.freshness.list(),
    store.freshness.failures(),
  ]);
  const oldest = summary.oldestPendingAt ? Math.max(0, Math.round((now.getTime() - Date.parse(summary.oldestPendingAt)) / 1000)) : null;
  const names = [...new Set([...fresh.map((f) => f.source), ...failures.map((f) => f.source)])].sort();
  return {
    outbox: { ...summary, oldestPendingAgeSeconds: oldest },
    failed: failed.map(toFailedView),
    moreFailed: Math.max(0, summary.failed - failed.length),
    sources: names.map((source) => {
      const row = fresh.find((f) => f.source === source);
      const failure = failures.find((f) => f.source === source);
      return {
        source,
        dataThrough: row?.dataThrough ?? null,
        refreshedAt: row?.refreshedAt ?? null,
        failing: failure ? { since: failure.failedAt, error: failure.error } : null,
      };
    }),
  };
}

function toFailedView(item: OutboxItem): FailedItemView {
  return {
    id: item.id,
    target: item.target,
    failingSince: item.firstFailureAt,
    attempts: item.attempts,
    lastError: item.lastError,
    summary: item.message.summary,
  };
}

export function formatStatus(report: StatusReport): string {
  const o = report.outbox;
  const lines = [
    `Outbox: ${o.pending} pending (${o.failing} failing), ${o.sending} sending, ${o.sent} sent, ${o.failed} failed, ${o.suspectedDuplicates} suspected duplicates`,
  ];
  if (o.oldestPendingAt && o.oldestPendingAgeSeconds !== null)
    lines.push(`  oldest waiting item: queued ${age(o.oldestPendingAgeSeconds)} ago (${when(o.oldestPendingAt)})`);
  if (report.failed.length > 0) {
    lines.push('', `Failed items (${o.failed}, newest first):`);
    const rows = report.failed.map((f) => [
      `#${f.id}`,
      f.target,
      f.failingSince ? when(f.failingSince) : '-',
      String(f.attempts),
      oneLine(f.lastError ?? '-', 80),
      oneLine(f.summary, 100),
    ]);
    lines.push(...table([['id', 'target', 'failing since', 'attempts', 'last error', 'message'], ...rows]));
    if (report.moreFailed > 0) lines.push(`  and ${report.moreFailed} more`);
  }
  lines.push('', report.sources.length > 0 ? 'Sources:' : 'Sources: none refreshed yet');
  const sources = report.sources.map((s) => [
    s.source,
    s.dataThrough ? when(s.dataThrough) : '-',
    s.refreshedAt ? when(s.refreshedAt) : 'never',
    s.failing ? `FAILING since ${when(s.failing.since)}: ${oneLine(s.failing.error)}` : 'ok',
  ]);
  if (sources.length > 0) lines.push(...table([['source', 'data through', 'last refresh', 'state'], ...sources]));
  if (o.failed > 0) {
    const one = report.failed[0]!.id;
    lines.push('', `Next: fix the cause, then: burnrate outbox retry (all ${o.failed}), or burnrate outbox retry --id ${one} (one)`);
  }
  return `${lines.join('\n')}\n`;
}

/** 2026-11-21T08:05:09.123Z -> 2026-11-21 08:05 UTC: minutes are what an operator compares. */
function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function age(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** Columns padded to their widest cell; the last one is left ragged. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => `  ${r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')}`);
}

/** Errors and summaries may span lines; one line each keeps the listing scannable. */
function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
