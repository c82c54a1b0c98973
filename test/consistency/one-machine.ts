import Database from 'better-sqlite3';
import type { Deps } from '../../src/deps.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { insertSaving } from '../../src/store/savings-ledger.js';
import { sqliteSession } from '../../src/store/sqlite/sqlite-dialect.js';

/** One GPU machine as the resource-line tests see it: billed every day, a Kubernetes node, stopped once. */
export interface OneMachine {
  db: string;
  now: string;
  /** The day the bill's data runs through. */
  today: string;
  instance: string;
  host: string;
  name: string;
  workload: string;
  days: readonly string[];
  rows: SpendRow[];
  stopAt: string;
}

/**
 * Writes the machine's bill, a Kubernetes workload holding its GPU every hour of every day, and a
 * Stop as the action records it (an expected $40 a day), into the team `vision`'s store.
 */
export async function recordOneMachine(deps: Deps, m: OneMachine): Promise<void> {
  await deps.store.importBatches([
    { scope: { source: 'test', billingPeriods: ['2026-10', '2026-11'] }, rows: m.rows, dataThrough: `${m.today}T00:00:00Z` },
  ]);
  await deps.store.kubeUsage.record(
    'prod',
    new Date(m.now),
    m.days.map((day) => ({
      day,
      cluster: 'prod',
      node: m.host,
      nodeInstanceId: m.instance,
      nodeHourly: 1,
      namespace: 'vision',
      workload: m.workload,
      team: 'vision',
      nodeHours: 24,
    })),
    [],
  );
  const sql = new Database(m.db);
  await insertSaving(sqliteSession(sql), {
    action: 'instance.stop',
    ref: 'finding-1',
    resourceId: m.instance,
    name: m.name,
    team: 'vision',
    at: new Date(m.stopAt),
    byUser: 'U0ALICE',
    expectedDaily: 40,
    currency: 'USD',
  });
  sql.close();
}
