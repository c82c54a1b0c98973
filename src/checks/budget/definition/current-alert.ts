import { alertGroup } from '../../reconcile.js';
import type { Deps } from '../../../deps.js';
import type { TrackedFinding } from '../../../domain/finding.js';
import { personOf } from '../../../ports/people-directory.js';
import { budgetAlert } from '../../../../templates/budget-alert.js';
import type { Mention, Message } from '../../../../templates/message.js';

/**
 * The alert as it should look now: the finding's latest figures, who acknowledged or snoozed it
 * (pinged on the platform they clicked on, named on the others), and the buttons that state leaves.
 */
export async function currentAlertMessage(deps: Deps, finding: TrackedFinding): Promise<Message> {
  const now = deps.clock();
  const [ack, snoozes] = await Promise.all([deps.store.acknowledgements.get(finding.id), deps.store.snoozes.active(now)]);
  const snooze = snoozes.find((s) => s.groupKey === alertGroup(finding));
  const person = (userId: string): Mention => personOf(deps, userId);
  const team = deps.config.teams.find((t) => t.id === finding.team);
  return budgetAlert({
    finding,
    teamName: team?.name ?? finding.team,
    event: finding.state === 'resolved' ? 'resolved' : 'new',
    previousThreshold: null,
    acknowledged: ack ? { by: person(ack.byUser), at: ack.at } : undefined,
    snoozed: snooze ? { by: person(snooze.byUser), at: snooze.at, until: snooze.until } : undefined,
  });
}
