/**
 * The small team the budget alert tests cross thresholds with: ML, $1,000 a month, alerts at 50,
 * 80 and 100% of actual spend, no forecast (so the figures are exactly the spend a test imports
 * with importSpend). `extra` adds what a test is about: its channel, its owners and approvers.
 */
export function mlTeam(extra: Record<string, unknown> = {}) {
  return { id: 'ml', name: 'ML', budget: { monthly: 1000, thresholds: [50, 80, 100], forecast: false }, ...extra };
}
