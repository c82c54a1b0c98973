/**
 * Athena (Trino) SQL as DuckDB runs it. The two share the SQL burnrate's Athena source writes but
 * for map_filter(map, (k, v) -> condition), which DuckDB spells as a filter over the map's entries;
 * array_min, which DuckDB lacks, is defined as a macro by the fake (ARRAY_MIN_MACRO).
 */
export function trinoToDuckDb(sql: string): string {
  let out = sql;
  for (let at = out.indexOf('map_filter('); at >= 0; at = out.indexOf('map_filter(')) {
    const open = at + 'map_filter'.length;
    const close = matchingParen(out, open);
    const [map, lambda] = splitTopLevel(out.slice(open + 1, close));
    const parts = /^\s*\((\w+),\s*(\w+)\)\s*->\s*([\s\S]*)$/.exec(lambda ?? '');
    if (!map || !parts) throw new Error(`cannot translate ${out.slice(at, close + 1)}`);
    const body = renameOutsideQuotes(parts[3]!, { [parts[1]!]: 'e.key', [parts[2]!]: 'e.value' });
    out = `${out.slice(0, at)}map_from_entries(list_filter(map_entries(${map}), lambda e: ${body}))${out.slice(close + 1)}`;
  }
  return out;
}

export const ARRAY_MIN_MACRO = 'CREATE MACRO array_min(a) AS list_min(a)';

/** The index of the parenthesis closing the one at `open`, skipping quoted text. */
function matchingParen(sql: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') i = sql.indexOf(c, i + 1);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  throw new Error(`unbalanced parentheses in ${sql.slice(open, open + 80)}`);
}

/** Splits at commas outside parentheses and quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') i = text.indexOf(c, i + 1);
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Replaces whole-word identifiers, leaving string literals and quoted names alone. */
function renameOutsideQuotes(text: string, names: Record<string, string>): string {
  return text
    .split(/('(?:[^']|'')*'|"(?:[^"]|"")*")/)
    .map((piece, i) => (i % 2 === 1 ? piece : piece.replace(/\b\w+\b/g, (word) => names[word] ?? word)))
    .join('');
}
