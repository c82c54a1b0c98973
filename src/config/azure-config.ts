import { z } from 'zod';

/** A subscription id as Azure writes it: a GUID. */
const subscriptionId = z
  .string({ error: 'expected a subscription id such as 00000000-0000-0000-0000-000000000000' })
  .trim()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
    error: 'expected a subscription id (a GUID such as 00000000-0000-0000-0000-000000000000), not its display name',
  })
  .transform((id) => id.toLowerCase());

const subscriptionIds = z
  .array(subscriptionId, { error: 'expected a list of subscription ids, e.g. [00000000-0000-0000-0000-000000000000]' })
  .min(1, { error: 'expected at least one subscription id' })
  .transform((ids) => [...new Set(ids)]);

/**
 * The N-series (GPU) virtual machines of these Azure subscriptions: burnrate lists them and, with
 * actions enabled, deallocates idle ones. Credentials: DefaultAzureCredential (managed identity,
 * workload identity, or a service principal from AZURE_CLIENT_ID / AZURE_TENANT_ID /
 * AZURE_CLIENT_SECRET); never this file.
 */
export const azureInventorySchema = z.strictObject({
  type: z.literal('azure'),
  subscriptions: subscriptionIds,
});

export type AzureInventoryConfig = z.output<typeof azureInventorySchema>;

const NAMESPACE = 'expected a metrics namespace such as Telegraf/nvidia_smi';

/**
 * GPU metrics the VMs of these subscriptions publish to Azure Monitor as custom metrics of
 * themselves: Telegraf's nvidia_smi input with its azure_monitor output (`utilization_gpu`,
 * `memory_used` per GPU `index`), under `namespace`. Credentials as the inventory's.
 */
export const azureMonitorMetricsSchema = z.strictObject({
  type: z.literal('azure-monitor'),
  id: z.string().trim().min(1, { error: 'expected a source id' }).optional(),
  subscriptions: subscriptionIds,
  /** Telegraf's azure_monitor output writes each input under Telegraf/<input>: nvidia_smi's GPUs under Telegraf/nvidia_smi. */
  namespace: z.string({ error: NAMESPACE }).trim().min(1, { error: NAMESPACE }).default('Telegraf/nvidia_smi'),
});

export type AzureMonitorMetricsConfig = z.output<typeof azureMonitorMetricsSchema>;
