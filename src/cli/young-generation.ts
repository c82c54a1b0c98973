import { setFlagsFromString } from 'node:v8';

/**
 * Verbs whose process lives on or allocates a great deal, which keep V8's own sizing: serve and
 * mcp run for days, import and demo write a bill.
 */
const GROWING = new Set(['serve', 'mcp', 'import', 'demo']);

/**
 * A command that answers and exits keeps V8's young generation at its first size. V8 doubles it
 * (up to 16 MB) whenever much of it survives a collection, as it does while the modules load; a
 * process gone a quarter of a second later never gets that memory's worth, but its peak RSS holds
 * it (5 MB for `spend`, 16 MB for `idle` on the demo database; CPU time the same within the
 * spread). V8 reads the growth factor each time it would grow, so setting it before the command's
 * modules load takes effect.
 */
export function sizeYoungGenerationFor(verb: string | undefined): void {
  if (verb === undefined || GROWING.has(verb)) return;
  setFlagsFromString('--semi-space-growth-factor=1');
}
