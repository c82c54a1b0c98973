import { CloudCatalogClient } from '@google-cloud/billing';
import type { ComputeSku } from '../../catalog/gcp-sku-pricing.js';
import { withRetries, type RetryPolicy } from '../retry.js';
import { explainGoogleError, isRetryableGoogleError } from './gcp-errors.js';
import { gaxClientOptions, type GoogleEndpoint } from './google-endpoint.js';

/** Compute Engine's service id in the Cloud Catalog. */
export const COMPUTE_ENGINE_SERVICE = 'services/6F81-5844-456A';

/**
 * Reads Compute Engine's public SKU list (tens of thousands of SKUs, 5,000 a page) and keeps the
 * on-demand and spot hourly prices: GPUs, and the cores and memory of GPU machine families.
 */
export async function listComputeSkus(endpoint: GoogleEndpoint, retry: RetryPolicy, currencyCode = 'USD'): Promise<ComputeSku[]> {
  const client = new CloudCatalogClient(gaxClientOptions(endpoint));
  const skus: ComputeSku[] = [];
  let pageToken: string | undefined;
  try {
    do {
      const request = { parent: COMPUTE_ENGINE_SERVICE, currencyCode, pageSize: 5000, ...(pageToken ? { pageToken } : {}) };
      const [page, , response] = await withRetries(
        () => client.listSkus(request, { autoPaginate: false, retry: null }),
        isRetryableGoogleError,
        retry,
      );
      for (const sku of page) {
        const usageType = sku.category?.usageType;
        if (usageType !== 'OnDemand' && usageType !== 'Preemptible') continue;
        const expression = sku.pricingInfo?.[0]?.pricingExpression;
        const unit = expression?.usageUnit ?? '';
        if (unit !== 'h' && unit !== 'GiBy.h') continue;
        // The last tier is the price at any real volume (the first is often a free tier).
        const rate = expression?.tieredRates?.[expression.tieredRates.length - 1]?.unitPrice;
        if (!rate || !sku.skuId || !sku.description) continue;
        skus.push({
          skuId: sku.skuId,
          description: sku.description,
          usageType,
          regions: sku.serviceRegions ?? [],
          unitPrice: Number(String(rate.units ?? 0)) + (rate.nanos ?? 0) / 1e9,
          currency: rate.currencyCode || currencyCode,
        });
      }
      pageToken = response?.nextPageToken || undefined;
    } while (pageToken);
  } catch (error) {
    throw explainGoogleError(error, {
      service: 'Cloud Catalog',
      permission: '(none: any authenticated caller)',
      role: 'no role',
      resource: COMPUTE_ENGINE_SERVICE,
    });
  } finally {
    await client.close();
  }
  return skus;
}
