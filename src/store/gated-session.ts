import type { Session } from './session.js';

/**
 * A session whose every call first waits for `gate` (work the store does on opening, such as
 * making Kubernetes moves anew at burnrate.yml's rates): no table reads before it is done, and a
 * failure of it is every call's answer, as a database that cannot be reached is.
 */
export function gatedSession(session: Session, gate: Promise<void>): Session {
  return {
    dialect: session.dialect,
    rows: async (sql, params) => (await gate, session.rows(sql, params)),
    one: async (sql, params) => (await gate, session.one(sql, params)),
    tuples: async (sql, params) => (await gate, session.tuples(sql, params)),
    run: async (sql, params) => (await gate, session.run(sql, params)),
    insertRows: async (table, columns, rows) => (await gate, session.insertRows(table, columns, rows)),
    transaction: async (work) => (await gate, session.transaction(work)),
    lock: async (name) => (await gate, session.lock(name)),
  };
}
