import { readFile, writeFile } from 'node:fs/promises';
import { formatCatalog } from '../catalog/format-catalog.js';
import { repriceGcp, type RepriceResult } from '../catalog/gcp-sku-pricing.js';
import type { GpuPrice } from '../domain/price-catalog.js';
import { BurnrateError } from '../domain/errors.js';
import { listComputeSkus } from '../providers/gcp/cloud-catalog.js';
import type { GoogleEndpoint } from '../providers/gcp/google-endpoint.js';
import { projectBilling, type ProjectBilling } from '../providers/gcp/project-billing.js';
import type { RetryPolicy } from '../providers/retry.js';

export interface GcpPriceRefresh extends RepriceResult {
  skusRead: number;
  /** The billing account of the configured project: Cloud Catalog prices are list prices, its contract may differ. */
  billing: ProjectBilling | null;
  written: boolean;
}

/**
 * `prices refresh --provider gcp`, step by step:
 *   1. read the catalog file (gpu-prices.json)
 *   2. read Compute Engine's SKUs from the Cloud Catalog and, when a project is known, its billing account
 *   3. reprice the GCP entries (core + memory + GPUs); entries without SKUs keep their price
 *   4. write the file back in its committed format, unless dry run
 */
export async function refreshGcpPrices(options: {
  catalogPath: string;
  project?: string;
  endpoint: GoogleEndpoint;
  retry: RetryPolicy;
  dryRun: boolean;
}): Promise<GcpPriceRefresh> {
  const entries = await readCatalog(options.catalogPath);
  const [skus, billing] = await Promise.all([
    listComputeSkus(options.endpoint, options.retry),
    options.project ? projectBilling(options.project, options.endpoint, options.retry) : Promise.resolve(null),
  ]);
  const result = repriceGcp(entries, skus);
  const written = !options.dryRun && result.changes.length > 0;
  if (written) await writeFile(options.catalogPath, formatCatalog(result.entries));
  return { ...result, skusRead: skus.length, billing, written };
}

async function readCatalog(path: string): Promise<GpuPrice[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new BurnrateError(
      'burnrate_price_catalog_unreadable',
      `cannot read the price catalog ${path}: ${(error as Error).message}`,
      'Pass --catalog with the path of gpu-prices.json (src/catalog/gpu-prices.json in the project).',
      2,
    );
  }
  if (!Array.isArray(parsed))
    throw new BurnrateError(
      'burnrate_price_catalog_invalid',
      `${path} is not a list of prices`,
      'Rebuild it with scripts/build-price-catalog.ts.',
      2,
    );
  return parsed as GpuPrice[];
}
