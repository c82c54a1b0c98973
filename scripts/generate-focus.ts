// Writes a realistic, deterministic FOCUS 1.2 cost export as CSV: a month (2026-10) of hourly charges
// over ~1,400 resources of three providers (GPU instances, storage, network), with the messiness
// of real exports (tag keys in several spellings, NULL literals, untagged and unknown-team spend,
// taxes and negative credits). Used by tests and by bench/focus-import.ts.
//
//   node dist/scripts/generate-focus.js out.csv 1000000 [seed]

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '../src/providers/demo/random.js';

/** FOCUS 1.2 columns written, in file order: every mandatory column and the common conditional ones. */
export const FOCUS_CSV_COLUMNS = [
  'AvailabilityZone',
  'BilledCost',
  'BillingAccountId',
  'BillingAccountName',
  'BillingAccountType',
  'BillingCurrency',
  'BillingPeriodEnd',
  'BillingPeriodStart',
  'ChargeCategory',
  'ChargeClass',
  'ChargeDescription',
  'ChargeFrequency',
  'ChargePeriodEnd',
  'ChargePeriodStart',
  'CommitmentDiscountId',
  'ConsumedQuantity',
  'ConsumedUnit',
  'ContractedCost',
  'ContractedUnitPrice',
  'EffectiveCost',
  'InvoiceIssuerName',
  'ListCost',
  'ListUnitPrice',
  'PricingCategory',
  'PricingQuantity',
  'PricingUnit',
  'ProviderName',
  'PublisherName',
  'RegionId',
  'RegionName',
  'ResourceId',
  'ResourceName',
  'ResourceType',
  'ServiceCategory',
  'ServiceName',
  'ServiceSubcategory',
  'SkuId',
  'SkuPriceId',
  'SubAccountId',
  'SubAccountName',
  'Tags',
] as const;

export const GENERATED_MONTH = '2026-10';
const MONTH_START = Date.UTC(2026, 9, 1);
const HOURS = 31 * 24;
const HOUR_MS = 3_600_000;
const RESOURCE_COUNT = 1400;
const CHUNK_CHARS = 64 * 1024;

interface Account {
  provider: string;
  publisher: string;
  billingAccountId: string;
  billingAccountName: string;
  billingAccountType: string;
  subAccounts: { id: string; name: string }[];
  regions: { id: string; name: string; zone: string }[];
}

interface Offer {
  service: string;
  category: string;
  subcategory: string;
  resourceType: string;
  sku: string;
  unit: string;
  /** List price per unit. */
  price: number;
  /** Units per hour: [min, max). */
  quantity: [number, number];
  kind: 'gpu' | 'storage' | 'network';
}

interface Resource {
  offer: Offer;
  pricing: 'Standard' | 'Committed' | 'Dynamic';
  commitmentId: string;
  /** Row segments that never change for this resource, already CSV-escaped. */
  head: string; // AvailabilityZone + ','
  account: string; // ',' BillingAccountId .. BillingPeriodStart + ','
  prices: string; // ContractedUnitPrice (with commas around)
  invoice: string; // ',' InvoiceIssuerName ','
  listUnitPrice: string; // ',' ListUnitPrice ','
  unitToRegion: string; // ',' PricingQuantity is before this: PricingUnit .. RegionName ','
  usageTail: string; // ResourceId .. Tags + newline
  taxTail: string; // the same for tax rows: no resource, no tags
  usageDescription: string;
}

const ACCOUNTS: Account[] = [
  {
    provider: 'AWS',
    publisher: 'AWS',
    billingAccountId: '123456789012',
    billingAccountName: 'Acme AI Payer',
    billingAccountType: 'Billing Account',
    subAccounts: [
      { id: '210987654321', name: 'ml-research-prod' },
      { id: '310987654321', name: 'llm-training' },
      { id: '410987654321', name: 'inference-prod' },
      { id: '510987654321', name: 'sandbox' },
    ],
    regions: [
      { id: 'us-east-1', name: 'US East (N. Virginia)', zone: 'us-east-1a' },
      { id: 'us-west-2', name: 'US West (Oregon)', zone: 'us-west-2b' },
    ],
  },
  {
    provider: 'Microsoft',
    publisher: 'Microsoft',
    billingAccountId: '8611537',
    billingAccountName: 'Acme AI EA',
    billingAccountType: 'Billing Profile',
    subAccounts: [
      { id: '/subscriptions/6c1d3b2a-7f4e-4a51-9d8e-2b3c4d5e6f70', name: 'vision-prod' },
      { id: '/subscriptions/0a9b8c7d-6e5f-4a3b-2c1d-0e9f8a7b6c5d', name: 'shared-ml' },
    ],
    regions: [
      { id: 'eastus', name: 'East US', zone: '1' },
      { id: 'westeurope', name: 'West Europe', zone: '2' },
    ],
  },
  {
    provider: 'Google Cloud',
    publisher: 'Google Cloud',
    billingAccountId: '01A2B3-C4D5E6-F7G8H9',
    billingAccountName: 'Acme AI GCP',
    billingAccountType: 'Billing Account',
    subAccounts: [
      { id: 'acme-llm-train', name: 'acme-llm-train' },
      { id: 'acme-serving', name: 'acme-serving' },
    ],
    regions: [
      { id: 'us-central1', name: 'Iowa', zone: 'us-central1-a' },
      { id: 'europe-west4', name: 'Netherlands', zone: 'europe-west4-b' },
    ],
  },
];

const OFFERS: Record<string, Offer[]> = {
  AWS: [
    {
      service: 'Amazon Elastic Compute Cloud',
      category: 'Compute',
      subcategory: 'Virtual Machines',
      resourceType: 'Instance',
      sku: 'p4d.24xlarge',
      unit: 'Hours',
      price: 32.7726,
      quantity: [1, 1],
      kind: 'gpu',
    },
    {
      service: 'Amazon Elastic Compute Cloud',
      category: 'Compute',
      subcategory: 'Virtual Machines',
      resourceType: 'Instance',
      sku: 'g5.2xlarge',
      unit: 'Hours',
      price: 1.212,
      quantity: [1, 1],
      kind: 'gpu',
    },
    {
      service: 'Amazon SageMaker',
      category: 'AI and Machine Learning',
      subcategory: 'Machine Learning',
      resourceType: 'Endpoint',
      sku: 'ml.g5.12xlarge',
      unit: 'Hours',
      price: 7.09,
      quantity: [1, 1],
      kind: 'gpu',
    },
    {
      service: 'Amazon Simple Storage Service',
      category: 'Storage',
      subcategory: 'Object Storage',
      resourceType: 'Bucket',
      sku: 'TimedStorage-ByteHrs',
      unit: 'GB-Hours',
      price: 0.0000315068,
      quantity: [2000, 90000],
      kind: 'storage',
    },
    {
      service: 'AWS Data Transfer',
      category: 'Networking',
      subcategory: 'Network Traffic',
      resourceType: 'Transfer',
      sku: 'DataTransfer-Out-Bytes',
      unit: 'GB',
      price: 0.09,
      quantity: [0.5, 60],
      kind: 'network',
    },
  ],
  Microsoft: [
    {
      service: 'Virtual Machines',
      category: 'Compute',
      subcategory: 'Virtual Machines',
      resourceType: 'Virtual machine',
      sku: 'Standard_ND96asr_v4',
      unit: '1 Hour',
      price: 27.197,
      quantity: [1, 1],
      kind: 'gpu',
    },
    {
      service: 'Virtual Machines',
      category: 'Compute',
      subcategory: 'Virtual Machines',
      resourceType: 'Virtual machine',
      sku: 'Standard_NC24ads_A100_v4',
      unit: '1 Hour',
      price: 3.673,
      quantity: [1, 1],
      kind: 'gpu',
    },
    {
      service: 'Storage',
      category: 'Storage',
      subcategory: 'Object Storage',
      resourceType: 'Storage account',
      sku: 'Hot LRS Data Stored',
      unit: '1 GB/Hour',
      price: 0.0000246575,
      quantity: [500, 40000],
      kind: 'storage',
    },
    {
      service: 'Bandwidth',
      category: 'Networking',
      subcategory: 'Network Traffic',
      resourceType: 'Bandwidth',
      sku: 'Standard Data Transfer Out',
      unit: '1 GB',
      price: 0.087,
      quantity: [0.2, 30],
      kind: 'network',
    },
  ],
  'Google Cloud': [
    {
      service: 'Compute Engine',
      category: 'Compute',
      subcategory: 'Virtual Machines',
      resourceType: 'VM instance',
      sku: 'a2-highgpu-8g',
      unit: 'hour',
      price: 29.3876,
      quantity: [1, 1],
      kind: 'gpu',
    },
    {
      service: 'Vertex AI',
      category: 'AI and Machine Learning',
      subcategory: 'Machine Learning',
      resourceType: 'Endpoint',
      sku: 'NVIDIA L4 serving',
      unit: 'hour',
      price: 0.7098,
      quantity: [1, 4],
      kind: 'gpu',
    },
    {
      service: 'Cloud Storage',
      category: 'Storage',
      subcategory: 'Object Storage',
      resourceType: 'Bucket',
      sku: 'Standard Storage US Multi-region',
      unit: 'gibibyte hour',
      price: 0.0000356164,
      quantity: [1000, 60000],
      kind: 'storage',
    },
    {
      service: 'Networking',
      category: 'Networking',
      subcategory: 'Network Traffic',
      resourceType: 'Network',
      sku: 'Network Internet Egress',
      unit: 'gibibyte',
      price: 0.12,
      quantity: [0.1, 20],
      kind: 'network',
    },
  ],
};

const TEAM_VALUES = ['ml-research', 'research', 'llm-training', 'LLM', 'inference', 'serving', 'vision', 'cv'];

/** Tags the way real exports have them: several spellings of the key, untagged, unknown teams, NULL. */
function tagsFor(random: () => number): string {
  const team = TEAM_VALUES[Math.floor(random() * TEAM_VALUES.length)]!;
  const r = random();
  if (r < 0.36) return JSON.stringify({ team, env: random() < 0.7 ? 'prod' : 'dev' });
  if (r < 0.46) return JSON.stringify({ ' Team ': team.toUpperCase(), CostCenter: 'CC-1042' });
  if (r < 0.56) return JSON.stringify({ 'user:team': team, 'user:project': `p-${Math.floor(random() * 40)}` });
  if (r < 0.61) return JSON.stringify({ TEAM: ` ${team} ` });
  if (r < 0.66) return JSON.stringify({ team: random() < 0.5 ? 'growth' : 'Data Platform', env: 'prod' });
  if (r < 0.69) return JSON.stringify({ team: random() < 0.5 ? '' : null, env: 'dev' });
  if (r < 0.7) return '{team: broken json';
  if (r < 0.78) return JSON.stringify({ env: 'dev', owner: 'jdoe' });
  if (r < 0.82) return '{}';
  if (r < 0.94) return 'NULL';
  return '';
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function buildResources(random: () => number, billingStart: string, billingEnd: string): Resource[] {
  const resources: Resource[] = [];
  for (let i = 0; i < RESOURCE_COUNT; i++) {
    const account = ACCOUNTS[i % ACCOUNTS.length]!;
    const offers = OFFERS[account.provider]!;
    // 60% GPU, 25% storage, 15% network
    const r = random();
    const kind = r < 0.6 ? 'gpu' : r < 0.85 ? 'storage' : 'network';
    const candidates = offers.filter((o) => o.kind === kind);
    const offer = candidates[Math.floor(random() * candidates.length)]!;
    const subAccount = account.subAccounts[Math.floor(random() * account.subAccounts.length)]!;
    const region = account.regions[Math.floor(random() * account.regions.length)]!;
    const pricingRoll = random();
    const pricing = offer.kind !== 'gpu' ? 'Standard' : pricingRoll < 0.3 ? 'Committed' : pricingRoll < 0.4 ? 'Dynamic' : 'Standard';
    const name = `${offer.kind}-${String(i).padStart(4, '0')}`;
    const resourceId =
      account.provider === 'AWS'
        ? `arn:aws:ec2:${region.id}:${subAccount.id}:instance/i-${(0x10000000 + i * 7919).toString(16)}`
        : account.provider === 'Microsoft'
          ? `${subAccount.id}/resourcegroups/rg-ml/providers/microsoft.compute/virtualmachines/${name}`
          : `//compute.googleapis.com/projects/${subAccount.id}/zones/${region.zone}/instances/${name}`;
    const commitmentId = pricing === 'Committed' ? `cd-${account.provider.slice(0, 3).toLowerCase()}-${i % 7}` : '';
    const tags = tagsFor(random);
    const serviceCols = [
      offer.resourceType,
      offer.category,
      offer.service,
      offer.subcategory,
      offer.sku,
      `${offer.sku}-${pricing.toLowerCase()}`,
      subAccount.id,
      subAccount.name,
    ]
      .map(csvField)
      .join(',');
    resources.push({
      offer,
      pricing,
      commitmentId,
      head: csvField(offer.kind === 'network' ? '' : region.zone) + ',',
      account: `,${[account.billingAccountId, account.billingAccountName, account.billingAccountType].map(csvField).join(',')},USD,${billingEnd},${billingStart},`,
      prices: `,${amount(offer.price * 0.95, 10)},`,
      invoice: `,${csvField(account.publisher)},`,
      listUnitPrice: `,${amount(offer.price, 10)},`,
      unitToRegion: `,${[offer.unit, account.provider, account.publisher, region.id, region.name].map(csvField).join(',')},`,
      usageTail: `${csvField(resourceId)},${csvField(name)},${serviceCols},${csvField(tags)}\n`,
      taxTail: `NULL,NULL,${serviceCols},NULL\n`,
      usageDescription: csvField(
        `${offer.sku} ${offer.kind === 'gpu' ? 'instance hours' : offer.kind === 'storage' ? 'data stored' : 'data transfer out'}`,
      ),
    });
  }
  return resources;
}

/** Formats an amount with a fixed number of decimals, never "-0.00...". */
function amount(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return value < 0 && Number(text) === 0 ? text.slice(1) : text;
}

function hourStamp(hour: number): string {
  return new Date(MONTH_START + hour * HOUR_MS).toISOString().replace('.000Z', 'Z');
}

/**
 * Writes `rows` data rows of FOCUS 1.2 CSV to `path`, spread over the hours of October 2026.
 * The same seed gives the same bytes.
 */
export async function generateFocusCsv(path: string, rows: number, seed = 42): Promise<{ rows: number; bytes: number }> {
  const random = mulberry32(seed); // never Math.random: the file must be reproducible
  const billingStart = hourStamp(0);
  const billingEnd = new Date(Date.UTC(2026, 10, 1)).toISOString().replace('.000Z', 'Z');
  const resources = buildResources(random, billingStart, billingEnd);
  // ChargePeriodEnd,ChargePeriodStart of each hour, with the commas around them
  const periods = Array.from({ length: HOURS }, (_, h) => `,${hourStamp(h + 1)},${hourStamp(h)},`);

  const out = createWriteStream(path);
  let bytes = 0;
  // Small chunks keep the concatenated strings short-lived (young-generation garbage): much faster.
  let chunk = FOCUS_CSV_COLUMNS.join(',') + '\n';
  const flush = async (): Promise<void> => {
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
    chunk = '';
  };

  for (let i = 0; i < rows; i++) {
    const res = resources[i % resources.length]!;
    const period = periods[Math.floor((i * HOURS) / rows)]!;
    const offer = res.offer;
    const [qMin, qMax] = offer.quantity;
    const quantity = qMin === qMax ? qMin : qMin + random() * (qMax - qMin);
    const listCost = quantity * offer.price;
    const roll = random();
    const decimals = offer.kind === 'storage' ? 10 : 6;
    const pricingQuantity = amount(quantity, 6);

    if (roll >= 0.03) {
      // Usage: committed usage is prepaid (billed 0, amortised effective cost), spot is cheap.
      const contracted = listCost * 0.95;
      const billed = res.pricing === 'Committed' ? 0 : res.pricing === 'Dynamic' ? listCost * 0.35 : contracted;
      const effective = res.pricing === 'Committed' ? listCost * 0.62 : billed;
      const billedText = amount(billed, decimals);
      chunk +=
        `${res.head}${billedText}${res.account}Usage,,${res.usageDescription},Usage-Based${period}${res.commitmentId},${pricingQuantity},` +
        `${csvField(offer.unit)},${amount(contracted, decimals)}${res.prices}${res.pricing === 'Committed' ? amount(effective, decimals) : billedText}` +
        `${res.invoice}${amount(listCost, decimals)}${res.listUnitPrice}${res.pricing},${pricingQuantity}${res.unitToRegion}${res.usageTail}`;
    } else if (roll < 0.02) {
      const tax = amount(listCost * 0.08, decimals);
      chunk +=
        `${res.head}${tax}${res.account}Tax,,Sales tax,Recurring${period},NULL,NULL,${tax}${res.prices}${tax}` +
        `${res.invoice}${tax}${res.listUnitPrice}NULL,${pricingQuantity}${res.unitToRegion}${res.taxTail}`;
    } else {
      const credit = amount(-listCost * (0.05 + random() * 0.2), decimals);
      const chargeClass = random() < 0.1 ? 'Correction' : '';
      chunk +=
        `${res.head}${credit}${res.account}Credit,${chargeClass},Research credits program,One-Time${period},,,${credit}${res.prices}${credit}` +
        `${res.invoice}${credit}${res.listUnitPrice}NULL,${pricingQuantity}${res.unitToRegion}${res.usageTail}`;
    }
    if (chunk.length >= CHUNK_CHARS) await flush();
  }
  await flush();
  out.end();
  await once(out, 'close');
  return { rows, bytes };
}

async function main(argv: string[]): Promise<void> {
  const [path, rowsText = '1000000', seedText = '42'] = argv;
  const rows = Number(rowsText);
  const seed = Number(seedText);
  if (!path || !Number.isInteger(rows) || rows < 0 || !Number.isInteger(seed)) {
    console.error('usage: node dist/scripts/generate-focus.js <out.csv> [rows=1000000] [seed=42]');
    process.exitCode = 2;
    return;
  }
  const started = performance.now();
  const result = await generateFocusCsv(path, rows, seed);
  const ms = performance.now() - started;
  console.log(`wrote ${result.rows} rows (${(result.bytes / 1e6).toFixed(1)} MB) to ${path} in ${(ms / 1000).toFixed(2)} s`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
