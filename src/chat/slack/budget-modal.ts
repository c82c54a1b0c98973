import type { TeamConfig } from '../../config/schema.js';
import type { BudgetFormInput } from '../../domain/budget-form.js';

/** Slack-only glue: the modal that edits a team's budget. Validation is shared (parseBudgetForm). */
export const BUDGET_MODAL_ID = 'budget_edit';

const FIELDS = { monthly: 'monthly', weekly: 'weekly', thresholds: 'thresholds' } as const;

export function budgetModalView(team: TeamConfig): object {
  const budget = team.budget;
  const input = (field: keyof typeof FIELDS, label: string, hint: string, initial: string | undefined) => ({
    type: 'input',
    block_id: field,
    optional: true,
    label: { type: 'plain_text', text: label },
    hint: { type: 'plain_text', text: hint },
    element: { type: 'plain_text_input', action_id: field, ...(initial ? { initial_value: initial } : {}) },
  });
  return {
    type: 'modal',
    callback_id: BUDGET_MODAL_ID,
    private_metadata: team.id,
    title: { type: 'plain_text', text: 'Edit budget' },
    submit: { type: 'plain_text', text: 'Save' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `Budget of *${(team.name ?? team.id).replace(/[<>&*_~`]/g, '')}* (${budget?.currency ?? 'USD'})` },
      },
      input('monthly', 'Monthly budget', 'e.g. 50000, 50k or 1.2m; empty to leave as is', budget?.monthly?.toString()),
      input('weekly', 'Weekly budget', 'Monday to Sunday; empty for none', budget?.weekly?.toString()),
      input('thresholds', 'Alert thresholds (%)', 'e.g. 50, 80, 100', budget?.thresholds.join(', ')),
    ],
  };
}

/** The fields of a view_submission, by our field names. */
export function budgetModalInput(values: Record<string, Record<string, { value?: string | null }>>): BudgetFormInput {
  const read = (field: keyof typeof FIELDS) => values[field]?.[field]?.value ?? null;
  return { monthly: read('monthly'), weekly: read('weekly'), thresholds: read('thresholds') };
}
