import { parseAmount } from './amount.js';

export interface BudgetFormInput {
  monthly?: string | null;
  weekly?: string | null;
  thresholds?: string | null;
}

export interface BudgetFormValue {
  monthly: number | null;
  weekly: number | null;
  thresholds: number[] | null;
}

/** Validates the budget form (Slack modal, any form UI): every field's problem, or the values. */
export function parseBudgetForm(
  input: BudgetFormInput,
): { ok: true; value: BudgetFormValue } | { ok: false; errors: Partial<Record<keyof BudgetFormInput, string>> } {
  const errors: Partial<Record<keyof BudgetFormInput, string>> = {};
  const amount = (field: 'monthly' | 'weekly'): number | null => {
    const text = input[field]?.trim();
    if (!text) return null;
    const value = parseAmount(text);
    if (value === null) errors[field] = `"${text}" is not an amount: write 50000, 50k or 1.2m`;
    return value;
  };
  const monthly = amount('monthly');
  const weekly = amount('weekly');
  if (monthly === null && weekly === null && !errors.monthly && !errors.weekly)
    errors.monthly = 'Give a monthly or a weekly budget (or both).';
  let thresholds: number[] | null = null;
  const text = input.thresholds?.trim();
  if (text) {
    const parts = text
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((p) => Number(p.replace(/%$/, '')));
    if (parts.some((p) => !Number.isFinite(p) || p <= 0 || p > 1000))
      errors.thresholds = 'Write percentages between 1 and 1000, e.g. 50, 80, 100.';
    else thresholds = [...new Set(parts)].sort((a, b) => a - b);
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: { monthly, weekly, thresholds } };
}
