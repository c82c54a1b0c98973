import { costKindOf } from '../domain/cost-kind.js';
import type { FxRates } from '../domain/fx.js';
import type { ExportPart, SpendBatch, SpendRow, SpendScope } from '../domain/spend.js';
import type { ImportOptions, ImportSummary } from '../domain/spend-import.js';
import { periodSpend, refuseShrinking } from './import-guard.js';
import { ImportTally } from './import-tally.js';
import { BILL_RATES_ONLY, rederiveSpend } from './kube-attribution.js';
import { writePodSplits } from './kube-split-costs.js';
import { SPEND_AMOUNTS, SPEND_COLUMN_NAMES } from './schema.js';
import type { InsertColumn, Session } from './session.js';
import { writeFreshness } from './source-freshness.js';
import { deleteExportParts } from './spend-export-parts.js';
import { periodScope, spanOfScope, SPEND_LOCK } from './spend-team-days.js';

/**
 * Store.importBatches: every batch of an import in one transaction, all or nothing. It holds the
 * spend lock from its first statement, so a second replica importing at once waits, then reads
 * (and replaces) what this one wrote. `fx` (burnrate.yml's rates) converts the amounts of a
 * Kubernetes node-day billed in several currencies when its cost moves to workloads' teams.
 */
export async function importBatches(
  db: Session,
  batches: readonly SpendBatch[],
  now?: Date,
  options?: ImportOptions,
  fx: FxRates = BILL_RATES_ONLY,
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
      if (batch.podSplits) await writePodSplits(tx, scope, batch.podSplits, partsOnly);
      if (before) refuseShrinking(scope.source, before, await periodSpend(tx, scope.source, scope.billingPeriods));
      await writeFreshness(tx, scope.source, batch.dataThrough, now ?? new Date());
    }
    await rederiveSpend(tx, tally.touched, fx);
    return tally.summary();
  });
}

/** Deletes the whole billing periods (or days) a batch covers, in its source and accounts. */
async function deleteSpendScope(tx: Session, scope: SpendScope): Promise<number> {
  if (scope.days) {
    return tx.run('DELETE FROM spend_daily WHERE source = ? AND day >= ? AND day < ?', [scope.source, scope.days.start, scope.days.end]);
  }
  const { where, params } = periodScope(tx.dialect, scope);
  return tx.run(`DELETE FROM spend_daily WHERE ${where}`, params);
}

/** The spend_daily columns a batch fills, in the order fillSpendValues writes them. */
const SPEND_COLUMNS: readonly InsertColumn[] = SPEND_COLUMN_NAMES.map((name) => ({
  name,
  type: SPEND_AMOUNTS.includes(name) ? 'float8' : 'text',
}));

/** A row's values in SPEND_COLUMNS order, written into `out`: one plain function, no call per column (the import's hot loop). */
function fillSpendValues(out: unknown[], source: string, r: SpendRow, p: ExportPart | undefined): void {
  out[0] = source;
  out[1] = r.billingPeriod;
  out[2] = r.billingAccount ?? '';
  out[3] = r.day;
  out[4] = r.team;
  out[5] = r.ownerTag;
  out[6] = r.provider;
  out[7] = r.subAccount;
  out[8] = r.service;
  out[9] = r.serviceCategory;
  out[10] = r.resourceId;
  out[11] = r.chargeCategory;
  out[12] = r.pricingCategory;
  out[13] = r.currency;
  out[14] = r.billed;
  out[15] = r.effective;
  out[16] = r.experiment ?? null;
  out[17] = r.run ?? null;
  out[18] = r.sweep ?? null;
  out[19] = p?.exportId ?? null;
  out[20] = p?.name ?? null;
  out[21] = p?.contentHash ?? null;
  out[22] = r.chargeFrequency ?? null;
  out[23] = r.chargeClass ?? null;
  out[24] = r.commitmentDiscountId ?? null;
  out[25] = r.commitmentDiscountType ?? null;
  out[26] = r.commitmentDiscountCategory ?? null;
  out[27] = r.commitmentDiscountStatus ?? null;
  out[28] = r.listCost ?? null;
  out[29] = r.contractedCost ?? null;
  out[30] = r.publisher ?? null;
  out[31] = r.invoiceIssuer ?? null;
  out[32] = r.resourceName ?? null;
  out[33] = r.region ?? null;
  out[34] = costKindOf(r.chargeCategory, r.chargeFrequency);
  out[35] = r.pricingCurrency ?? null;
  out[36] = r.pricingCurrencyEffectiveCost ?? null;
  out[37] = r.hostProvider ?? null;
  out[38] = r.extensions ?? null;
  out[39] = r.usageHours ?? null;
  out[40] = r.commitmentDiscountEnd ?? null;
}

/** Inserts a batch's rows, each with the export part it came from (if any), through one array refilled per row. */
async function insertSpendRows(tx: Session, batch: SpendBatch): Promise<number> {
  const parts = batch.scope.parts ?? [];
  const source = batch.scope.source;
  const values: unknown[] = new Array(SPEND_COLUMNS.length);
  function* rows(): Generator<readonly unknown[]> {
    for (const row of batch.rows) {
      fillSpendValues(values, source, row, row.part === undefined ? undefined : parts[row.part]);
      yield values;
    }
  }
  return tx.insertRows('spend_daily', SPEND_COLUMNS, rows());
}
