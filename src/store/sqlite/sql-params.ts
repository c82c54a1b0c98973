/**
 * A statement shared by both stores, written with Postgres's $1, $2 … and turned into the plain `?`
 * better-sqlite3 binds by position. Only for statements that use each parameter once, in order.
 */
export function forSqlite(sql: string): string {
  return sql.replace(/\$\d+/g, '?');
}
