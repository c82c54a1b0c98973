import { z } from 'zod';

/** A subscription id as Azure writes it: a GUID. */
const subscriptionId = z
  .string({ error: 'expected a subscription id such as 00000000-0000-0000-0000-000000000000' })
  .trim()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
    error: 'expected a subscription id (a GUID such as 00000000-0000-0000-0000-000000000000), not its display name',
  })
  .transform((id) => id.toLowerCase());

/**
 * The N-series (GPU) virtual machines of these Azure subscriptions: burnrate lists them and, with
 * actions enabled, deallocates idle ones. Credentials: DefaultAzureCredential (managed identity,
 * workload identity, or a service principal from AZURE_CLIENT_ID / AZURE_TENANT_ID /
 * AZURE_CLIENT_SECRET); never this file.
 */
export const azureInventorySchema = z.strictObject({
  type: z.literal('azure'),
  subscriptions: z
    .array(subscriptionId, { error: 'expected a list of subscription ids, e.g. [00000000-0000-0000-0000-000000000000]' })
    .min(1, { error: 'expected at least one subscription id' })
    .transform((ids) => [...new Set(ids)]),
});

export type AzureInventoryConfig = z.output<typeof azureInventorySchema>;
