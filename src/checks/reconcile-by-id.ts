import type { FindingChange } from '../domain/finding-change.js';

/** New, still open and resolved, by id: the state machine of findings that open once and resolve when gone. */
export function reconcileById<T extends { id: string }>(current: readonly T[], open: readonly { id: string }[]): FindingChange<T> {
  const before = new Set(open.map((f) => f.id));
  const now = new Set(current.map((f) => f.id));
  return {
    opened: current.filter((f) => !before.has(f.id)),
    stillOpen: current.filter((f) => before.has(f.id)),
    resolved: open.filter((f) => !now.has(f.id)).map((f) => f.id),
  };
}
