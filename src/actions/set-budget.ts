import type { Actor } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import type { Cadence } from '../domain/finding.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { BurnrateError } from '../domain/errors.js';
import { Refused } from '../domain/audit-outcome.js';
import { runAudited } from '../store/audited-step.js';

export interface BudgetChange {
  team: string;
  cadence: Cadence;
  amount: number;
  /** New thresholds, or null to keep those in force. */
  thresholds: number[] | null;
}

/**
 * Changes a team's budget: approvers and admins only, audited either way (as `budget set`, from
 * the command and the App Home form alike). The next check uses it.
 */
export async function setBudget(deps: Deps, actor: Actor, change: BudgetChange): Promise<void> {
  const now = deps.clock();
  const audit = {
    at: now,
    platform: actor.platform,
    userId: actor.userId,
    action: 'budget set',
    subject: change.team,
    detail: `${change.cadence} ${change.amount}${change.thresholds ? ` thresholds ${change.thresholds.join(',')}` : ''}`,
  };
  await runAudited(deps.store.audit, audit, async () => {
    if (!hasRole(rolesOf(deps.config, actor.userId), change.team, ['approver']))
      throw new Refused(
        new BurnrateError(
          'burnrate_forbidden',
          `Only approvers of ${change.team} can change its budget.`,
          'Ask one of its approvers, or an admin.',
        ),
      );
    await deps.store.budgets.set({ ...change, byUser: actor.userId, at: now });
    return { audit: { result: 'ok' }, value: undefined };
  });
}
