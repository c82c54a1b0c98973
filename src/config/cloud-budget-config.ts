import { z } from 'zod';

/**
 * How budgets defined in a cloud console are read and tied to teams. A budget belongs to a team
 * when its name matches `teamPattern` (the `team` group, or the first group, is a tag value or team
 * id) or, failing that, when its filter names one value of the ownership tag.
 */
export const cloudBudgetsSchema = z.strictObject({
  teamPattern: z
    .string({ error: 'expected a regular expression such as ^(?<team>[a-z0-9-]+)-monthly$' })
    .refine(isRegExp, { error: 'expected a valid regular expression, e.g. ^(?<team>[a-z0-9-]+)-monthly$' })
    .optional(),
  /** A team without a monthly budget in burnrate.yml takes the cloud budget's amount and thresholds. */
  alerts: z.boolean({ error: 'expected true or false' }).default(true),
});

export type CloudBudgetsConfig = z.output<typeof cloudBudgetsSchema>;

/** How many days the first pull reads, when a source has no data yet: the budget checks' history. */
export const backfillDays = z
  .number()
  .int({ error: 'expected a whole number of days' })
  .min(7, { error: 'expected at least 7 days' })
  .max(400)
  .default(70);

function isRegExp(text: string): boolean {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
}
