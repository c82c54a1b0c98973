// SQLite compares text byte by byte and sorts NULLs first; a Postgres database may have a
// linguistic collation ("a" < "B" < "b", punctuation ignored) and sorts NULLs last. Where an
// answer's order or a max() of names can be seen, the Postgres sub-stores ask for SQLite's.
// Days and timestamps (fixed-width ISO text) compare alike under any collation and are left as they are.

/** A text expression compared as SQLite compares it: byte by byte. */
export const bytes = (expression: string): string => `${expression} COLLATE "C"`;

/** ORDER BY terms in the order SQLite gives text columns (ascending bytes, NULLs first). */
export const sqliteOrder = (...columns: string[]): string => columns.map((c) => `${bytes(c)} NULLS FIRST`).join(', ');
