import { utcMinute } from '../domain/utc-minute.js';
import { alertGroup } from '../checks/reconcile.js';
import type { Deps } from '../deps.js';
import type { TrackedFinding } from '../domain/finding.js';
import { budgetAlert } from '../../templates/budget-alert.js';
import type { Message } from '../../templates/message.js';

/** The alert as it should look now: the finding's latest figures plus who acknowledged or snoozed it. */
export async function currentAlertMessage(deps: Deps, finding: TrackedFinding): Promise<Message> {
  const now = deps.clock();
  const [ack, snoozes] = await Promise.all([deps.store.acknowledgements.get(finding.id), deps.store.snoozes.active(now)]);
  const snooze = snoozes.find((s) => s.groupKey === alertGroup(finding));
  const notes = [
    ...(ack ? [`Acknowledged by ${ack.byUser} at ${utcMinute(ack.at)}`] : []),
    ...(snooze ? [`Snoozed by ${snooze.byUser} at ${utcMinute(snooze.at)} until ${utcMinute(snooze.until)}`] : []),
  ];
  const team = deps.config.teams.find((t) => t.id === finding.team);
  return budgetAlert({
    finding,
    teamName: team?.name ?? finding.team,
    event: finding.state === 'resolved' ? 'resolved' : 'new',
    previousThreshold: null,
    notes,
  });
}
