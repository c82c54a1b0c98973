import type { ResultByTime } from '@aws-sdk/client-cost-explorer';
import type { SpendRow } from '../../domain/spend.js';
import type { PullContext } from '../../ports/pull-context.js';
import { chargeOfRecordType } from './record-types.js';

/**
 * Cost Explorer's daily groups → spend rows. A group's keys are `<tagKey>$<value>` (empty value:
 * untagged) and the service name (usage) or the record type (taxes, fees, credits); UnblendedCost is what was billed, AmortizedCost what the day
 * really cost once upfront commitments are spread (burnrate's "effective" cost).
 */
export function costAndUsageRows(
  results: readonly ResultByTime[],
  ctx: Pick<PullContext, 'resolveTeam'>,
  billingAccount: string | null,
  secondKey: 'service' | 'recordType' = 'service',
): SpendRow[] {
  const rows: SpendRow[] = [];
  for (const result of results) {
    const day = result.TimePeriod?.Start;
    if (!day) continue;
    for (const group of result.Groups ?? []) {
      const [tagKey = '', second = '(unknown service)'] = group.Keys ?? [];
      const charge = chargeOfRecordType(secondKey === 'service' ? 'Usage' : second);
      const ownerTag = tagValueOf(tagKey);
      const billed = group.Metrics?.UnblendedCost;
      const effective = group.Metrics?.AmortizedCost;
      const billedAmount = Number(billed?.Amount ?? 0);
      const effectiveAmount = Number(effective?.Amount ?? billed?.Amount ?? 0);
      if (billedAmount === 0 && effectiveAmount === 0) continue;
      rows.push({
        day,
        billingPeriod: day.slice(0, 7),
        team: ctx.resolveTeam(ownerTag),
        ownerTag,
        provider: 'AWS',
        billingAccount,
        subAccount: null,
        service: secondKey === 'service' ? second : charge.label,
        serviceCategory: null,
        resourceId: null,
        chargeCategory: charge.chargeCategory,
        chargeFrequency: charge.chargeFrequency,
        pricingCategory: null,
        currency: billed?.Unit ?? effective?.Unit ?? 'USD',
        billed: billedAmount,
        effective: effectiveAmount,
      });
    }
  }
  return rows;
}

/** `team$ml-research` → `ml-research`; `team$` (no tag on the cost) → null. */
function tagValueOf(key: string): string | null {
  const at = key.indexOf('$');
  const value = at < 0 ? key : key.slice(at + 1);
  return value.trim() === '' ? null : value;
}
