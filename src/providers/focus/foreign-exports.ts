// Cost exports burnrate cannot read as they are, recognised by their columns, so a refusal says
// what the file is and how to get FOCUS from that provider instead of listing missing columns.

interface ForeignExport {
  /** "an Azure cost export (EA, MCA or pay-as-you-go)". */
  what: string;
  hint: string;
  matches(columns: ReadonlySet<string>): boolean;
}

const AZURE_HINT =
  'Export FOCUS from Azure instead: Cost Management > Exports > "Cost and usage details (FOCUS)", as CSV or Parquet, and import that.';

const FOREIGN: readonly ForeignExport[] = [
  {
    what: 'an Azure cost export (EA, MCA or pay-as-you-go usage details)',
    hint: AZURE_HINT,
    matches: (c) =>
      ['costinbillingcurrency', 'pretaxcost', 'meter category', 'metercategory', 'subscriptionguid', 'instanceid', 'consumedservice'].some(
        (n) => c.has(n),
      ) && ['cost', 'costinbillingcurrency', 'pretaxcost', 'costusd', 'extendedcost'].some((n) => c.has(n)),
  },
  {
    what: 'an Azure cost export with German headers',
    hint: `${AZURE_HINT} (The FOCUS export has the same English column names in every portal language.)`,
    matches: (c) =>
      ['kosten', 'kosten in abrechnungswährung', 'abonnement', 'verbrauchter dienst', 'messungskategorie'].some((n) => c.has(n)),
  },
  {
    what: 'a Google Cloud billing export (standard or detailed usage cost)',
    hint: 'Export FOCUS from Google Cloud instead: the FOCUS BigQuery view over the billing export, saved as CSV or Parquet; or configure the gcp source in burnrate.yml to read the billing export directly.',
    matches: (c) =>
      (c.has('billing_account_id') && (c.has('service.description') || c.has('cost_type'))) ||
      (c.has('service description') && c.has('cost (usd)')) ||
      (c.has('project id') && c.has('sku description')),
  },
];

/** What a file that is neither FOCUS nor a CUR looks like, with how to export FOCUS from its provider; null: unknown. */
export function recogniseForeignExport(columns: readonly string[]): { what: string; hint: string } | null {
  const names = new Set(
    columns.map((c) =>
      c
        .replace(/^\uFEFF/, '')
        .trim()
        .toLowerCase(),
    ),
  );
  const found = FOREIGN.find((f) => f.matches(names));
  return found ? { what: found.what, hint: found.hint } : null;
}
