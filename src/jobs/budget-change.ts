import { currentAlertMessage } from '../checks/budget/definition/current-alert.js';
import { alertGroup } from '../checks/reconcile.js';
import type { Deps } from '../deps.js';
import type { TrackedFinding } from '../domain/finding.js';
import type { Actor } from '../ports/interaction.js';
import type { AppliedBudgetChange } from '../domain/budget-change.js';
import { personOf } from '../ports/people-directory.js';
import { channelsOf, inThreadOn, postOn } from '../outbox/fan-out.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import { budgetChanged } from '../../templates/budget-changed.js';
import { runBudgetCheck } from './budget-check.js';

/**
 * After a budget change from chat or App Home: the budget check runs for the team at once (a
 * threshold the new budget crosses, or no longer crosses, is told as usual), every open alert's
 * first message is edited to show the new budget, and the team's channels are told who changed it.
 */
export async function announceBudgetChange(deps: Deps, actor: Actor, change: AppliedBudgetChange): Promise<void> {
  const team = deps.config.teams.find((t) => t.id === change.team);
  // Without a chat port (an answer worker) a check would record alerts it cannot queue: leave it to the schedule.
  if (!team || deps.chat.length === 0) return;
  await runBudgetCheck(deps, { teams: [team.id] });
  const now = deps.clock();
  const keyBase = `budget-change:${team.id}:${change.cadence}:${now.toISOString()}`;
  const open = topPerGroup((await deps.store.findings.listOpen()).filter((f) => f.team === team.id));
  const drafts: OutboxDraft[] = [];
  // Pinged on the platform they changed it on, named on the others.
  const by = personOf(deps, actor.userId, actor.platform);
  for (const channel of channelsOf(deps.chat, team)) {
    const currency = team.budget?.currency ?? deps.config.fx.base;
    drafts.push(postOn(channel, keyBase, budgetChanged({ teamName: team.name ?? team.id, ...change, currency, by })));
    for (const finding of open) {
      const root = await deps.store.outbox.threadRoot(alertGroup(finding), channel.platform);
      if (!root) continue;
      const message = await currentAlertMessage(deps, finding);
      drafts.push(...inThreadOn(channel, root, `${keyBase}:${alertGroup(finding)}`, [{ op: 'update', message }]));
    }
  }
  await deps.store.outbox.enqueue(drafts, now);
  await deps.delivery?.wake();
}

/** The finding each alert group's message shows: its highest open threshold. */
function topPerGroup(findings: readonly TrackedFinding[]): TrackedFinding[] {
  const top = new Map<string, TrackedFinding>();
  for (const f of findings) {
    const seen = top.get(alertGroup(f));
    if (!seen || f.threshold > seen.threshold) top.set(alertGroup(f), f);
  }
  return [...top.values()];
}
