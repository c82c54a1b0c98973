import type { BillRate } from '../domain/fx.js';
import type { Session } from './session.js';

/**
 * The exchange rates bills used: their effective cost beside the same in the pricing currency, per
 * billing period. Read by the spend table's readers and by the moves of Kubernetes node cost, which
 * convert at the same rates inside an import's transaction.
 */
export async function readBillRates(db: Session): Promise<BillRate[]> {
  const d = db.dialect;
  return db.rows<BillRate>(
    `SELECT billing_period AS "billingPeriod", currency, pricing_currency AS "pricingCurrency",
       ${d.money('effective')} AS effective, ${d.money('pricing_currency_effective_cost')} AS "pricingEffective"
     FROM spend_daily
     WHERE pricing_currency IS NOT NULL AND pricing_currency <> currency AND pricing_currency_effective_cost IS NOT NULL
     GROUP BY billing_period, currency, pricing_currency ORDER BY billing_period, ${d.order('currency', 'pricing_currency')}`,
  );
}
