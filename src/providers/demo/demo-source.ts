import { loopTurnIfDue } from '../../domain/loop-turns.js';
import type { SpendBatch, SpendRow } from '../../domain/spend.js';
import type { PullContext } from '../../ports/pull-context.js';
import type { SpendSource } from '../../ports/spend-source.js';
import { demoRunawayRows } from './demo-runaway.js';
import { demoSpendDays } from './demo-spend.js';

export interface DemoSourceOptions {
  seed: number;
  days: number;
  /** Defaults to 'demo'. */
  id?: string;
}

const DAY_MS = 86_400_000;

/**
 * The embedded demo organisation as a spend source: `days` days of history ending yesterday (UTC).
 * Each pull replaces every billing period it covers, so the demo window simply slides forward.
 */
export class DemoSource implements SpendSource {
  readonly type = 'demo';
  readonly id: string;
  private readonly seed: number;
  private readonly days: number;

  constructor(options: DemoSourceOptions) {
    this.id = options.id ?? 'demo';
    this.seed = options.seed;
    this.days = options.days;
  }

  async pull(ctx: PullContext): Promise<SpendBatch[]> {
    const today = Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth(), ctx.now.getUTCDate());
    const rows: SpendRow[] = [];
    const days = demoSpendDays(
      {
        seed: this.seed,
        days: this.days,
        now: ctx.now,
        tagKeys: ctx.tagKeys,
        ...(ctx.unitTagKeys ? { unitTagKeys: ctx.unitTagKeys } : {}),
        resolveTeam: ctx.resolveTeam,
      },
      rows,
    );
    // serve's first run builds this bill while Slack and Teams requests arrive: the loop turns between days.
    for (const _day of days) await loopTurnIfDue();
    rows.push(...demoRunawayRows(ctx.now, ctx.tagKeys, ctx.resolveTeam));
    const billingPeriods = new Set<string>();
    for (let n = 1; n <= this.days; n++) billingPeriods.add(new Date(today - n * DAY_MS).toISOString().slice(0, 7));
    ctx.onProgress?.(rows.length, rows.length);
    return [
      {
        // No billing accounts: the whole demo of these periods is replaced, whichever accounts it invents.
        scope: { source: this.id, billingPeriods: [...billingPeriods].sort() },
        rows,
        dataThrough: new Date(today).toISOString(),
      },
    ];
  }
}
