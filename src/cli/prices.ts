import { resolve } from 'node:path';
import { CHAT_CHANNELS } from '../chat/platforms.js';
import { loadConfig } from '../config/load-config.js';
import { googleEndpoint } from '../providers/gcp/google-endpoint.js';
import { DEFAULT_RETRY } from '../providers/retry.js';
import { COMMON_OPTIONS, oneOf, parseVerbArgs, usageError } from './args.js';
import type { Verb } from './io.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.prices.usage;
const DEFAULT_CATALOG = 'src/catalog/gpu-prices.json';

/**
 * Reprices the Google Cloud GPU machines of the price catalog from the Cloud Catalog API and
 * writes the file back (rebuild burnrate to use it). Only gcp can be refreshed live so far.
 */
export const pricesVerb: Verb = async (args, io) => {
  const { values, positionals } = parseVerbArgs(
    args,
    {
      ...COMMON_OPTIONS,
      provider: { type: 'string' },
      catalog: { type: 'string' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    USAGE,
    true,
  );
  if (positionals[0] !== 'refresh' || positionals.length > 1)
    throw usageError(`expected "prices refresh", got "prices ${positionals.join(' ')}"`, USAGE);
  const provider = oneOf(values.provider, ['gcp'] as const, 'provider', USAGE);
  if (!provider)
    throw usageError(
      '--provider is required (gcp: the Cloud Catalog API; AWS and Azure prices come from scripts/build-price-catalog.ts)',
      USAGE,
    );
  const { config } = await loadConfig(values.config, CHAT_CHANNELS, io.env, io.cwd);
  const project = config.sources.find((s) => s.type === 'gcp')?.project;
  // Loaded here, not at start: the Cloud Billing client takes seconds to load.
  const { refreshGcpPrices } = await import('../jobs/refresh-gcp-prices.js');
  const result = await refreshGcpPrices({
    catalogPath: resolve(io.cwd, values.catalog ?? DEFAULT_CATALOG),
    ...(project ? { project } : {}),
    endpoint: googleEndpoint(io.env),
    retry: DEFAULT_RETRY,
    dryRun: values['dry-run'] ?? false,
  });
  if (values.json) {
    io.out.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const say = (line: string) => io.out.write(`${line}\n`);
  say(
    `Cloud Catalog: ${result.skusRead} Compute Engine SKUs read; ${result.changes.length} price(s) changed, ${result.unpriced.length} entr(y/ies) without SKUs kept as they were.`,
  );
  if (result.billing)
    say(
      `Project ${result.billing.project} bills to ${result.billing.billingAccount || '(no billing account)'}${result.billing.billingEnabled ? '' : ' (billing disabled)'}: these are list prices; negotiated prices may differ.`,
    );
  for (const c of result.changes)
    say(`  ${c.instanceType} ${c.region} ${c.field === 'onDemandHourly' ? 'on-demand' : 'spot'}: ${c.before ?? '—'} -> ${c.after} USD/h`);
  for (const u of result.unpriced) say(`  kept ${u.instanceType} ${u.region}: no SKU for ${u.missing}`);
  for (const o of result.outOfOrder) say(`  ${o.note}`);
  say(
    result.written
      ? 'Catalog written; rebuild burnrate (npm run build) to use it.'
      : values['dry-run']
        ? '(dry run: nothing written)'
        : 'Nothing to write.',
  );
  return 0;
};
