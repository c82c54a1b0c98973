/**
 * How a resource is listed: its name with the id beside it ("llm-pretrain-node-0 (i-0f6a31fb56d7ab70b)"),
 * the id alone where the data names it no other way. Every surface that lists resources uses this.
 */
export function resourceLabel(id: string, name: string | null | undefined): string {
  const named = name?.trim();
  return named && named !== id ? `${named} (${id})` : id;
}

/**
 * The id of a resource line's key: the store lists a resource the bill names as "name (id)"
 * (spend by resource), any other by its id alone.
 */
export function resourceIdOf(key: string): string {
  return /\(([^()\s]+)\)$/.exec(key)?.[1] ?? key;
}
