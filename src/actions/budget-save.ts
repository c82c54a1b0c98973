import { z } from 'zod';
import { ACTION_IDS } from '../domain/action-ids.js';
import { privateReply } from '../../templates/private-reply.js';
import { defineAction } from './action.js';
import { parseButtonValue } from './button-value.js';
import { setBudget } from './set-budget.js';

/** The form's values, already checked field by field by the form (parseBudgetForm); checked again here. */
const payloadSchema = z
  .object({
    team: z.string().min(1),
    monthly: z.number().positive().nullable(),
    weekly: z.number().positive().nullable(),
    thresholds: z.array(z.number().positive()).min(1).nullable(),
  })
  .refine((form) => form.monthly !== null || form.weekly !== null);

/**
 * A budget form saved (Slack's App Home modal): the monthly and weekly budgets given, with new
 * thresholds or those in force, through the same setBudget as `/burnrate budget set` (approvers only,
 * audited either way, one `budget set` row per budget: the operation audits itself, as for the
 * command). The answer replaces the form: the surface it came from is done.
 */
export const budgetSaveAction = defineAction({
  id: ACTION_IDS.budgetSave,
  permissions: [],
  sideEffects: 'records',
  parse: async (_deps, interaction) => parseButtonValue(payloadSchema, interaction.value, '/burnrate budget'),
  subject: () => null,
  async authorize() {},
  async run({ deps, interaction }, form) {
    for (const cadence of ['monthly', 'weekly'] as const) {
      const amount = form[cadence];
      if (amount !== null) await setBudget(deps, interaction.actor, { team: form.team, cadence, amount, thresholds: form.thresholds });
    }
    return { audit: null, value: null };
  },
  async answer({ interaction }, form) {
    await interaction.reply.update(privateReply(`The budget of ${form.team} is saved.`, 'The next budget check uses it.'));
  },
});
