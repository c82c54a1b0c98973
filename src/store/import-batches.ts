import { costKindOf } from '../domain/cost-kind.js';
import type { ExportPart, SpendBatch, SpendRow, SpendScope } from '../domain/spend.js';
import type { ImportOptions, ImportSummary } from '../domain/spend-import.js';
import { periodSpend, refuseShrinking } from './import-guard.js';
import { ImportTally } from './import-tally.js';
import { attributeKubeCost } from './kube-attribution.js';
import type { InsertColumn, Session } from './session.js';
import { writeFreshness } from './source-freshness.js';
import { deleteExportParts } from './spend-export-parts.js';
import { rebuildTeamDays, spanOfScope, SPEND_LOCK } from './spend-team-days.js';

/**
 * Store.importBatches: every batch of an import in one transaction, all or nothing. It holds the
 * spend lock from its first statement, so a second replica importing at once waits, then reads
 * (and replaces) what this one wrote.
 */
export async function importBatches(
  db: Session,
  batches: readonly SpendBatch[],
  now?: Date,
  options?: ImportOptions,
): Promise<ImportSummary> {
  return db.transaction(async (tx) => {
    await tx.lock(SPEND_LOCK);
    const tally = new ImportTally();
    for (const batch of batches) {
      const { scope } = batch;
      // File exports replace only their own parts, unless the whole period is to be replaced.
      const partsOnly = scope.parts !== undefined && !options?.replacePeriod;
      const before = partsOnly ? await periodSpend(tx, scope.source, scope.billingPeriods) : null;
      if (partsOnly) {
        const span = await spanOfScope(tx, { source: scope.source, billingPeriods: scope.billingPeriods });
        tally.deletedParts(span, await deleteExportParts(tx, scope));
      } else {
        const span = await spanOfScope(tx, scope);
        tally.deletedScope(span, await deleteSpendScope(tx, scope));
      }
      tally.inserted(batch, await insertSpendRows(tx, batch));
      if (before) refuseShrinking(scope.source, before, await periodSpend(tx, scope.source, scope.billingPeriods));
      await writeFreshness(tx, scope.source, batch.dataThrough, now ?? new Date());
    }
    if (tally.touched) {
      await attributeKubeCost(tx, tally.touched);
      await rebuildTeamDays(tx, tally.touched);
    }
    return tally.summary();
  });
}

/** Deletes the whole billing periods (or days) a batch covers, in its source and accounts. */
async function deleteSpendScope(tx: Session, scope: SpendScope): Promise<number> {
  if (scope.days) {
    return tx.run('DELETE FROM spend_daily WHERE source = ? AND day >= ? AND day < ?', [scope.source, scope.days.start, scope.days.end]);
  }
  const d = tx.dialect;
  const accounts = scope.billingAccounts;
  return tx.run(
    `DELETE FROM spend_daily WHERE source = ? AND ${d.inList('billing_period')} ${accounts ? `AND ${d.inList('billing_account')}` : ''}`,
    [scope.source, d.list(scope.billingPeriods), ...(accounts ? [d.list(accounts)] : [])],
  );
}

/** A spend_daily column a batch fills, and its value for a row (of its source, and from its export part). */
type SpendColumn = InsertColumn & { value: (row: SpendRow, part: ExportPart | undefined, source: string) => unknown };

const column = (name: string, type: InsertColumn['type'], value: SpendColumn['value']): SpendColumn => ({ name, type, value });

const SPEND_COLUMNS: readonly SpendColumn[] = [
  column('source', 'text', (_, __, source) => source),
  column('billing_period', 'text', (r) => r.billingPeriod),
  column('billing_account', 'text', (r) => r.billingAccount ?? ''),
  column('day', 'text', (r) => r.day),
  column('team', 'text', (r) => r.team),
  column('owner_tag', 'text', (r) => r.ownerTag),
  column('provider', 'text', (r) => r.provider),
  column('sub_account', 'text', (r) => r.subAccount),
  column('service', 'text', (r) => r.service),
  column('service_category', 'text', (r) => r.serviceCategory),
  column('resource_id', 'text', (r) => r.resourceId),
  column('charge_category', 'text', (r) => r.chargeCategory),
  column('pricing_category', 'text', (r) => r.pricingCategory),
  column('currency', 'text', (r) => r.currency),
  column('billed', 'float8', (r) => r.billed),
  column('effective', 'float8', (r) => r.effective),
  column('experiment', 'text', (r) => r.experiment),
  column('run_id', 'text', (r) => r.run),
  column('sweep', 'text', (r) => r.sweep),
  column('export_id', 'text', (_, p) => p?.exportId),
  column('part', 'text', (_, p) => p?.name),
  column('content_hash', 'text', (_, p) => p?.contentHash),
  column('charge_frequency', 'text', (r) => r.chargeFrequency),
  column('charge_class', 'text', (r) => r.chargeClass),
  column('commitment_discount_id', 'text', (r) => r.commitmentDiscountId),
  column('commitment_discount_type', 'text', (r) => r.commitmentDiscountType),
  column('commitment_discount_category', 'text', (r) => r.commitmentDiscountCategory),
  column('commitment_discount_status', 'text', (r) => r.commitmentDiscountStatus),
  column('list_cost', 'float8', (r) => r.listCost),
  column('contracted_cost', 'float8', (r) => r.contractedCost),
  column('publisher', 'text', (r) => r.publisher),
  column('invoice_issuer', 'text', (r) => r.invoiceIssuer),
  column('resource_name', 'text', (r) => r.resourceName),
  column('region', 'text', (r) => r.region),
  column('cost_kind', 'text', (r) => costKindOf(r.chargeCategory, r.chargeFrequency)),
  column('pricing_currency', 'text', (r) => r.pricingCurrency),
  column('pricing_currency_effective_cost', 'float8', (r) => r.pricingCurrencyEffectiveCost),
  column('host_provider', 'text', (r) => r.hostProvider),
  column('extensions', 'text', (r) => r.extensions),
  column('usage_hours', 'float8', (r) => r.usageHours),
  column('commitment_end', 'text', (r) => r.commitmentDiscountEnd),
];

/** Inserts a batch's rows, each with the export part it came from (if any). */
async function insertSpendRows(tx: Session, batch: SpendBatch): Promise<number> {
  const parts = batch.scope.parts ?? [];
  const source = batch.scope.source;
  const rows = batch.rows.map((row) => {
    const part = row.part === undefined ? undefined : parts[row.part];
    return SPEND_COLUMNS.map((c) => c.value(row, part, source) ?? null);
  });
  return tx.insertRows('spend_daily', SPEND_COLUMNS, rows);
}
