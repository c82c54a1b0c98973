import type { SpendBatch } from '../domain/spend.js';
import type { ImportSummary } from '../domain/spend-import.js';
import type { DeletedParts } from './spend-export-parts.js';
import { spanOfRows, widen, type DaySpan } from './spend-team-days.js';

/** What an import did so far, batch by batch (both stores): the summary it returns, and the days it touched. */
export class ImportTally {
  /** The days whose team days and Kubernetes moves are rebuilt once every batch is in. */
  touched: DaySpan | null = null;
  private rowsDeleted = 0;
  private rowsInserted = 0;
  private byParts = false;
  private readonly periods = new Set<string>();
  private readonly replacedParts = new Set<string>();

  /** Rows of whole billing periods (or days) deleted; `span`: the days they covered. */
  deletedScope(span: DaySpan | null, rows: number): void {
    this.touched = widen(this.touched, span);
    this.rowsDeleted += rows;
  }

  /** Rows of earlier export parts deleted; `span`: the days of the billing periods they were in. */
  deletedParts(span: DaySpan | null, deleted: DeletedParts): void {
    this.byParts = true;
    this.touched = widen(this.touched, span);
    this.rowsDeleted += deleted.rows;
    deleted.parts.forEach((p) => this.replacedParts.add(p));
  }

  inserted(batch: SpendBatch, rows: number): void {
    this.rowsInserted += rows;
    this.touched = widen(this.touched, spanOfRows(batch.rows));
    batch.scope.billingPeriods.forEach((p) => this.periods.add(p));
  }

  summary(): ImportSummary {
    return {
      rowsDeleted: this.rowsDeleted,
      rowsInserted: this.rowsInserted,
      billingPeriods: [...this.periods].sort(),
      replaced: this.byParts ? 'parts' : 'period',
      replacedParts: [...this.replacedParts].sort(),
    };
  }
}
