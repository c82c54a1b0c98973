import { askWhom } from './team-role.js';
import { groupsOf } from '../ports/people-directory.js';
import type { Actor } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import type { Cadence } from '../domain/finding.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { BurnrateError } from '../domain/errors.js';
import { Refused } from '../domain/audit-outcome.js';
import { runOperationAs, type Operation } from '../operations/operation.js';
import { applyBudgetOverrides } from '../domain/effective-budgets.js';
import { announceBudgetChange } from '../jobs/budget-change.js';

export interface BudgetChange {
  team: string;
  cadence: Cadence;
  amount: number;
  /** New thresholds, or null to keep those in force. */
  thresholds: number[] | null;
}

/** The change itself, audited as `budget set` by runOperation. */
const setBudgetOperation: Operation<BudgetChange, void> = {
  id: 'budget set',
  sideEffects: 'records',
  subject: (change) => ({
    subject: change.team,
    detail: `${change.cadence} ${change.amount}${change.thresholds ? ` thresholds ${change.thresholds.join(',')}` : ''}`,
  }),
  async authorize({ deps, actor }, change) {
    if (!hasRole(rolesOf(deps.config, actor.userId, groupsOf(deps)), change.team, ['approver']))
      throw new Refused(
        new BurnrateError(
          'burnrate_forbidden',
          `Only approvers of ${change.team} can change its budget.`,
          askWhom(deps, change.team, ['approver']),
        ),
      );
  },
  async run({ deps, actor, now }, change) {
    await deps.store.budgets.set({ ...change, byUser: actor.userId, at: now });
    return { audit: { result: 'ok' }, value: undefined };
  },
};

/**
 * Changes a team's budget: approvers and admins only, audited either way (as `budget set`, from
 * the command and the App Home form alike). The team's channels are told and its open alerts
 * show the new budget at once; a failure there is logged, the change stands.
 */
export async function setBudget(deps: Deps, actor: Actor, change: BudgetChange): Promise<void> {
  const before = applyBudgetOverrides(deps.config.teams, await deps.store.budgets.list()).find((t) => t.id === change.team);
  await runOperationAs(deps, actor, setBudgetOperation, change);
  const applied = { ...change, previous: before?.budget?.[change.cadence] ?? null };
  if (deps.budgetChanged) return deps.budgetChanged(actor, applied);
  try {
    await announceBudgetChange(deps, actor, applied);
  } catch (error) {
    deps.log.warn({ err: String(error), team: change.team }, 'budget changed; telling its channel failed');
  }
}
