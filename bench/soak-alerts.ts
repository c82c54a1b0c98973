// The alerts of the soak: each team gets budget and idle-GPU alerts at random times, each with its
// own dedupe key, and some of them a thread reply later (a finding that changed). Seeded.
import type { OutboxDraft } from '../src/store/outbox-records.js';
import type { Random } from '../src/providers/demo/random.js';
import { SOAK_PLATFORM } from './soak-chat.js';

export interface PlannedAlert {
  /** When the finding arises (simulated epoch ms); the next check queues it. */
  at: number;
  draft: OutboxDraft;
}

export interface AlertPlanOptions {
  teams: number;
  start: number;
  end: number;
  /** Mean time between two alerts of one team. */
  meanGapMs: number;
  /** Share of alerts that get a reply in their thread, 10 min to 6 h later. */
  replyShare: number;
}

const MINUTE = 60_000;

/** Every alert of the run, in time order. */
export function planAlerts(random: Random, options: AlertPlanOptions): PlannedAlert[] {
  const alerts: PlannedAlert[] = [];
  for (let t = 0; t < options.teams; t++) {
    const team = `team-${String(t).padStart(2, '0')}`;
    const target = `${SOAK_PLATFORM}:C-${team}`;
    let n = 0;
    for (let at = options.start + gap(random, options.meanGapMs); at < options.end; at += gap(random, options.meanGapMs)) {
      const kind = random.chance(0.4) ? 'budget' : 'idle';
      const dedupeKey = `${kind}:${team}:${++n}`;
      const summary = kind === 'budget' ? `${team} is over its monthly budget` : `${team} has an idle GPU`;
      alerts.push({ at: Math.round(at), draft: { dedupeKey, target, message: { summary, blocks: [{ type: 'text', text: summary }] } } });
      const replyAt = at + random.int(10, 360) * MINUTE;
      if (random.chance(options.replyShare) && replyAt < options.end) {
        const text = kind === 'budget' ? 'Spend went up again since this alert.' : 'The GPU is still idle.';
        alerts.push({
          at: Math.round(replyAt),
          draft: {
            dedupeKey: `${dedupeKey}:reply`,
            target,
            op: 'reply',
            parentKey: dedupeKey,
            message: { summary: text, blocks: [{ type: 'text', text }] },
          },
        });
      }
    }
  }
  return alerts.sort((a, b) => a.at - b.at);
}

function gap(random: Random, mean: number): number {
  return -Math.log(1 - random.next()) * mean;
}
