import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { teamSchema } from '../../../src/config/schema.js';
import { teamResolver } from '../../../src/domain/ownership.js';
import type { PullContext } from '../../../src/ports/pull-context.js';

export const TEAMS = [
  teamSchema.parse({ id: 'ml-research', match: ['ml-research', 'research'] }),
  teamSchema.parse({ id: 'llm-training', match: ['llm-training', 'llm'] }),
  teamSchema.parse({ id: 'inference', match: ['inference', 'serving'] }),
  teamSchema.parse({ id: 'vision', match: ['vision', 'cv'] }),
];

export function pullContext(tagKeys: readonly string[] = ['team', 'user:team'], onProgress?: PullContext['onProgress']): PullContext {
  return { now: new Date('2026-11-02T08:00:00Z'), tagKeys, resolveTeam: teamResolver(TEAMS), ...(onProgress ? { onProgress } : {}) };
}

export function tempDir(): { dir: string; path: (name: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-focus-'));
  return { dir, path: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The columns the small hand-written fixtures use: every column burnrate reads. */
export const HEADER = [
  'BilledCost',
  'EffectiveCost',
  'BillingCurrency',
  'BillingPeriodStart',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ChargeCategory',
  'ServiceName',
  'ServiceCategory',
  'ProviderName',
  'BillingAccountId',
  'SubAccountId',
  'ResourceId',
  'PricingCategory',
  'Tags',
] as const;

/** The usual columns and the hours a VM was billed for, as a bill that prices a VM at its billed rate carries them. */
export const HOURS_HEADER: readonly string[] = [...HEADER, 'ConsumedQuantity', 'ConsumedUnit'];

/** A row by column: the usual ones, and any other a test's header adds (x_UsageType, AllocatedTags...). */
export type FixtureRow = Partial<Record<(typeof HEADER)[number], string>> & { [column: string]: string | undefined };

const DEFAULTS: Required<FixtureRow> = {
  BilledCost: '1.00',
  EffectiveCost: '1.00',
  BillingCurrency: 'USD',
  BillingPeriodStart: '2026-10-01T00:00:00Z',
  ChargePeriodStart: '2026-10-01T00:00:00Z',
  ChargePeriodEnd: '2026-10-01T01:00:00Z',
  ChargeCategory: 'Usage',
  ServiceName: 'Amazon Elastic Compute Cloud',
  ServiceCategory: 'Compute',
  ProviderName: 'AWS',
  BillingAccountId: '123456789012',
  SubAccountId: '210987654321',
  ResourceId: 'i-0abc',
  PricingCategory: 'Standard',
  Tags: '{"team":"ml-research"}',
};

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** CSV text of fixture rows (defaults fill what a row leaves out). */
export function focusCsv(rows: FixtureRow[], header: readonly string[] = HEADER): string {
  const lines = [header.join(',')];
  for (const row of rows) {
    const full = { ...DEFAULTS, ...row } as Record<string, string>;
    lines.push(header.map((column) => csvField(full[column] ?? '')).join(','));
  }
  return lines.join('\n') + '\n';
}

/**
 * The cents of a cost column over fixture rows, each as the CSV writes it (the default where a row
 * leaves it out): the plain sum a test compares burnrate's stored figures with.
 */
export function fixtureCents(rows: readonly FixtureRow[], column: 'BilledCost' | 'EffectiveCost' = 'BilledCost'): number {
  return rows.reduce((sum, row) => sum + Math.round(Number(row[column] ?? DEFAULTS[column]) * 100), 0);
}

export function writeFocusCsv(path: string, rows: FixtureRow[], header?: readonly string[]): string {
  writeFileSync(path, focusCsv(rows, header));
  return path;
}
