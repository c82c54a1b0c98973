import type { FxRates } from '../domain/fx.js';
import { gatedSession } from './gated-session.js';
import { importBatches } from './import-batches.js';
import { attributeAtRates } from './kube-attribution.js';
import { recordRun } from './record-run.js';
import type { Session } from './session.js';
import type { Store } from './store.js';
import { storeTables } from './store-tables.js';
import type { LeaseClock } from './outbox-table.js';

/** What a database adds to the tables: where it is, whether replicas share it, when it is ready, who leads, closing. */
export type StoreConnection = Pick<Store, 'location' | 'shared' | 'ready' | 'competeForLeadership' | 'close'>;

/**
 * The store over one session: every table's module, the same on both databases (open-*-store.ts open
 * the session). `fx`, burnrate.yml's exchange rates, converts a Kubernetes node-day billed in several
 * currencies when its cost moves to workloads' teams; without it, only the bills' own rates do. With
 * it, moves made at other rates are made anew at these before the store's first read (attributeAtRates).
 */
export function assembleStore(opened: Session, leaseClock: LeaseClock, connection: StoreConnection, fx?: FxRates): Store {
  const attributed = fx ? attributeAtRates(opened, fx) : Promise.resolve();
  // Read by the first query, or by ready(); never an unhandled rejection on its own.
  attributed.catch(() => {});
  const session = fx ? gatedSession(opened, attributed) : opened;
  return {
    ...storeTables(session, leaseClock, fx),
    importBatches: (batches, now, options) => importBatches(session, batches, now, options, fx),
    recordRun: (table, change, alerts, now) => recordRun(session, table, change, alerts, now),
    isEmpty: async () => (await session.one<{ n: number }>('SELECT count(*) AS n FROM spend_daily'))!.n === 0,
    ...connection,
    ready: async () => {
      await connection.ready();
      await attributed;
    },
  };
}
