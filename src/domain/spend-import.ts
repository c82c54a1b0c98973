// What an import of spend batches did, for the CLI and the source refresh to report.

export interface ImportOptions {
  /** Replace whole billing periods (in each batch's source and accounts), even for file exports. */
  replacePeriod?: boolean;
}

export interface ImportSummary {
  rowsDeleted: number;
  rowsInserted: number;
  billingPeriods: string[];
  /** parts: only earlier rows of the same export parts were replaced; period: whole billing periods (or days) of the scope. */
  replaced: 'parts' | 'period';
  /** File names of the earlier export parts replaced. */
  replacedParts: string[];
}
