import pino from 'pino';
import { CHAT_CHANNELS } from '../../src/chat/platforms.js';
import { configSchemaWith } from '../../src/config/schema.js';
import type { Deps } from '../../src/deps.js';
import { daysOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { RecordingChat } from '../fakes/recording-chat.js';

/** Real parts for a test: an in-memory SQLite store (or a file), a recording chat port and a settable clock. */
/** burnrate.yml's schema as the loader parses it: with the chat registry's channel keys. */
const configSchema = configSchemaWith(CHAT_CHANNELS);

export function testDeps(config: unknown, start = '2026-11-21T09:00:00Z', dbPath = ':memory:') {
  const chat = new RecordingChat();
  let now = new Date(start);
  const parsed = configSchema.parse(config);
  const deps: Deps = {
    config: parsed,
    store: openStore(dbPath, { fx: parsed.fx }),
    sources: [],
    chat: [chat],
    clock: () => now,
    log: pino({ level: 'silent' }),
  };
  return { deps, chat, setNow: (iso: string) => (now = new Date(iso)) };
}

/** One row of daily spend for a team. */
export function spendRow(team: string, day: string, amount: number): SpendRow {
  return {
    day,
    billingPeriod: day.slice(0, 7),
    team,
    ownerTag: team,
    provider: 'AWS',
    billingAccount: '111',
    subAccount: null,
    service: 'Amazon Elastic Compute Cloud',
    serviceCategory: 'Compute',
    resourceId: `i-${team}`,
    chargeCategory: 'Usage',
    pricingCategory: 'Standard',
    currency: 'USD',
    billed: amount,
    effective: amount,
  };
}

/**
 * `perDay` of spend for `team` on every day in [from, to), imported as one batch whose data
 * reaches `to`: the simplest bill a budget test starts from.
 */
export async function importSpend(deps: Deps, from: string, to: string, perDay: number, team = 'ml'): Promise<void> {
  const days = daysOf({ start: from, end: to });
  await deps.store.importBatches([
    {
      scope: { source: 'test', billingPeriods: [...new Set(days.map((d) => d.slice(0, 7)))] },
      rows: days.map((d) => spendRow(team, d, perDay)),
      dataThrough: `${to}T00:00:00Z`,
    },
  ]);
}
