import type { CloudProvider } from '../../domain/price-catalog.js';
import { ownerTagOf } from '../../domain/ownership.js';
import type { SpendRow } from '../../domain/spend.js';
import { DEMO_ACCOUNTS, dayNumber, demoFleet, hoursOn } from './demo-fleet.js';
import { DEMO_AZURE } from './demo-azure.js';
import type { DemoInstance } from './demo-instance.js';
import { randomFor } from './random.js';
import type { UnitTagKeys } from '../../ports/pull-context.js';
import { demoUnitTags } from './demo-unit-tags.js';

/**
 * The demo organisation's daily bill: GPU instances (hours running x catalog price) plus each team's
 * storage, network, monitoring and managed-ML lines, a Savings Plan, taxes and a monthly credit.
 *
 * The Savings Plan is applied as AWS applies one, hour by hour: an EC2 Instance Savings Plan for the
 * p5 family in us-east-1, which only the pre-training run's three nodes use. Its commitment is two
 * nodes' hours at the committed rate: while the run is up (the nodes start and stop together) it
 * covers two nodes in full and the third runs on demand, so nothing is unused; while the run is
 * stopped nothing eligible runs, and those hours are the plan's unused commitment. So the bill never
 * shows unused commitment beside on-demand usage the plan could have covered.
 * Sized against the demo budgets: llm-training heads ~15-20% over its month, ml-research sits near
 * 80%, vision well under, and inference passes half its weekly budget by Wednesday.
 */

export interface DemoSpendOptions {
  seed: number;
  /** Days of history, ending yesterday (UTC). */
  days: number;
  now: Date;
  tagKeys: readonly string[];
  /** Where the experiment, run and sweep tags are read from; none when absent. */
  unitTagKeys?: UnitTagKeys;
  resolveTeam: (ownerTag: string | null | undefined) => string;
  /** Defaults to demoFleet(seed). */
  fleet?: readonly DemoInstance[];
}

const PROVIDER_NAME: Record<CloudProvider, string> = { aws: 'AWS', gcp: 'Google Cloud', azure: 'Microsoft' };
const BILLING_ACCOUNT: Record<CloudProvider, string> = {
  aws: DEMO_ACCOUNTS.aws.payer,
  gcp: DEMO_ACCOUNTS.gcp.billing,
  azure: DEMO_AZURE.billing,
};
const COMPUTE_SERVICE: Record<CloudProvider, string> = {
  aws: 'Amazon Elastic Compute Cloud',
  gcp: 'Compute Engine',
  azure: 'Virtual Machines',
};

/** What every demo row of a day, provider and account has. */
type RowBase = Pick<SpendRow, 'day' | 'billingPeriod' | 'team' | 'ownerTag' | 'provider' | 'billingAccount' | 'subAccount' | 'currency'>;

/** A recurring non-GPU line of one team: `weekday` USD a weekday at today's size. */
interface ServiceLine {
  provider: CloudProvider;
  service: string;
  category: string;
  team: string | null; // tag value under `team`
  subAccount: string;
  resourceId: string | null;
  weekday: number;
  /** Share of the weekday amount spent on Saturdays and Sundays. */
  weekend: number;
  /** Growth per 30 days (storage keeps growing; traffic a little). */
  growth: number;
  /** Billed in another currency by another issuer (the team's Tokyo account); USD when absent. */
  billedIn?: ForeignBilling;
}

/** An account billed in a currency other than USD: the amounts are the USD ones at `usdPerUnit`. */
interface ForeignBilling {
  currency: string;
  usdPerUnit: number;
  /** Units of the currency's smallest amount (JPY: whole yen). */
  decimals: number;
  billingAccount: string;
  invoiceIssuer: string;
}

/**
 * The vision team's Tokyo account is billed in yen by AWS's Japanese entity; the demo's burnrate.yml
 * gives the rate, so its budget, spend and showback figures convert it (the rate is also in demoConfig).
 */
export const DEMO_JPY: ForeignBilling = {
  currency: 'JPY',
  usdPerUnit: 0.0067,
  decimals: 0,
  billingAccount: '926348105527',
  invoiceIssuer: 'Amazon Web Services Japan G.K.',
};

/** AWS Business Support: one fee a month, billed on the 1st for the whole month (spread over its days). */
const SUPPORT_FEE_PER_MONTH = 4800;

const S3 = ['aws', 'Amazon Simple Storage Service', 'Storage'] as const;
const EBS = ['aws', 'Amazon Elastic Block Store', 'Storage'] as const;
const TRANSFER = ['aws', 'AWS Data Transfer', 'Networking'] as const;
const CLOUDWATCH = ['aws', 'Amazon CloudWatch', 'Management and Governance'] as const;
const SAGEMAKER = ['aws', 'Amazon SageMaker', 'AI and Machine Learning'] as const;
const GCS = ['gcp', 'Cloud Storage', 'Storage'] as const;
const GCP_NET = ['gcp', 'Networking', 'Networking'] as const;
const VERTEX = ['gcp', 'Vertex AI', 'AI and Machine Learning'] as const;

type Kind = readonly [CloudProvider, string, string];
const line = (
  kind: Kind,
  team: string | null,
  subAccount: string,
  resourceId: string | null,
  weekday: number,
  weekend: number,
  growth: number,
): ServiceLine => ({
  provider: kind[0],
  service: kind[1],
  category: kind[2],
  team,
  subAccount,
  resourceId,
  weekday,
  weekend,
  growth,
});

const A = DEMO_ACCOUNTS.aws;
const G = DEMO_ACCOUNTS.gcp;

export const DEMO_SERVICE_LINES: readonly ServiceLine[] = [
  line(S3, 'llm-training', A.llm, 'llm-checkpoints-prod', 400, 1, 0.05),
  line(EBS, 'llm-training', A.llm, null, 180, 1, 0.02),
  line(TRANSFER, 'llm-training', A.llm, null, 90, 0.7, 0.02),
  line(CLOUDWATCH, 'llm-training', A.llm, null, 25, 1, 0.01),
  line(SAGEMAKER, 'llm', A.llm, null, 220, 0.6, 0.03),
  line(GCS, 'llm-training', G.llm, 'llm-pretrain-shards', 60, 1, 0.04),
  line(GCP_NET, 'llm-training', G.llm, null, 20, 0.8, 0.02),

  line(S3, 'research', A.research, 'research-datasets', 110, 1, 0.04),
  line(EBS, 'ml-research', A.research, null, 60, 1, 0.02),
  line(TRANSFER, 'ml-research', A.research, null, 30, 0.6, 0.02),
  line(CLOUDWATCH, 'ml-research', A.research, null, 10, 1, 0.01),
  line(SAGEMAKER, 'research', A.research, null, 100, 0.5, 0.03),
  line(GCS, 'ml-research', G.research, 'research-eval-sets', 40, 1, 0.04),
  line(VERTEX, 'ml-research', G.research, null, 60, 0.5, 0.03),

  line(S3, 'inference', A.inference, 'serving-model-artifacts', 30, 1, 0.03),
  line(EBS, 'inference', A.inference, null, 40, 1, 0.02),
  line(TRANSFER, 'serving', A.inference, null, 300, 0.3, 0.04),
  line(CLOUDWATCH, 'inference', A.inference, null, 45, 0.6, 0.02),
  line(SAGEMAKER, 'inference', A.inference, null, 300, 0.3, 0.03),

  line(GCS, 'vision', G.vision, 'cv-images-raw', 90, 1, 0.05),
  line(VERTEX, 'cv', G.vision, null, 150, 0.5, 0.03),
  line(GCP_NET, 'vision', G.vision, null, 25, 0.6, 0.02),
  { ...line(S3, 'vision', A.visionTokyo, 'cv-annotations', 40, 1, 0.03), billedIn: DEMO_JPY },
  { ...line(EBS, 'vision', A.visionTokyo, null, 20, 1, 0.02), billedIn: DEMO_JPY },

  line(S3, 'growth-ml', A.sandbox, 'growth-features', 35, 1, 0.03),
  line(SAGEMAKER, 'growth-ml', A.sandbox, null, 45, 0.5, 0.03),

  // Shared plumbing nobody tagged: NAT and inter-AZ traffic, a shared bucket, old snapshots.
  line(TRANSFER, null, A.sandbox, null, 160, 0.8, 0.02),
  line(S3, null, A.sandbox, 'shared-datasets', 90, 1, 0.03),
  line(CLOUDWATCH, null, A.payer, null, 35, 1, 0.01),
  line(EBS, null, A.sandbox, null, 45, 1, 0.01),
  line(GCP_NET, null, G.shared, null, 25, 0.8, 0.02),
];

export function demoSpendRows(options: DemoSpendOptions): SpendRow[] {
  const rows: SpendRow[] = [];
  for (const _day of demoSpendDays(options, rows));
  return rows;
}

/**
 * demoSpendRows written into `rows` a day at a time: it pauses after each day, so the demo source
 * can give the event loop its turns while it builds a year of bill (a few hundred ms of CPU).
 */
export function* demoSpendDays(options: DemoSpendOptions, rows: SpendRow[]): Generator<void> {
  const { seed, days, now, tagKeys, resolveTeam } = options;
  const fleet = options.fleet ?? demoFleet(seed);
  const today = toDay(now);
  const yesterday = dayNumber(today) - 1;
  const base = (day: string, provider: CloudProvider, subAccount: string, tags: Record<string, string> | null): RowBase => {
    const ownerTag = ownerTagOf(tags, tagKeys);
    return {
      day,
      billingPeriod: day.slice(0, 7),
      team: resolveTeam(ownerTag),
      ownerTag,
      provider: PROVIDER_NAME[provider],
      billingAccount: BILLING_ACCOUNT[provider],
      subAccount,
      currency: 'USD',
    };
  };
  const commitmentPerDay = fleet.filter((i) => i.pricing === 'Committed').reduce((sum, i) => sum + i.effectiveHourly * 24, 0);
  const savingsPlan = `arn:aws:savingsplans::${A.payer}:savingsplan/${DEMO_SAVINGS_PLAN}`;
  // The plan's year ends 45 days after this month began: always inside the 60 days expiring commitments are told in.
  const monthStart = yesterday + 1 - (Number(dayOf(yesterday + 1).slice(8, 10)) - 1);
  const planEnds = `${dayOf(monthStart + 45)}T00:00:00Z`;

  for (let n = yesterday - days + 1; n <= yesterday; n++) {
    const day = dayOf(n);
    const weekend = isWeekend(n);
    let covered = 0;

    for (const instance of fleet) {
      const hours = hoursOn(instance, day);
      if (hours === 0) continue;
      const tags = { ...instance.tags, ...demoUnitTags(instance, day) };
      if (instance.pricing === 'Committed') covered += money(hours * instance.effectiveHourly);
      rows.push({
        ...base(day, instance.provider, instance.subAccount, tags),
        ...unitTagsOf(tags, options.unitTagKeys),
        service: COMPUTE_SERVICE[instance.provider],
        serviceCategory: 'Compute',
        resourceId: instance.instanceId,
        chargeCategory: 'Usage',
        pricingCategory: instance.pricing,
        // Savings-Plan-covered usage is billed through the plan's fee (below), not per hour.
        billed: instance.pricing === 'Committed' ? 0 : money(hours * instance.hourlyPrice),
        effective: money(hours * instance.effectiveHourly),
        usageHours: hours,
        ...(instance.pricing === 'Committed'
          ? {
              commitmentDiscountId: savingsPlan,
              commitmentDiscountType: SAVINGS_PLAN_TYPE,
              commitmentDiscountStatus: 'Used',
              commitmentDiscountEnd: planEnds,
            }
          : {}),
      });
    }

    DEMO_SERVICE_LINES.forEach((l, index) => {
      const r = randomFor(seed, 'line', index, day);
      const growth = Math.pow(1 + l.growth, (n - yesterday) / 30);
      const usd = l.weekday * (weekend ? l.weekend : 1) * growth * r.normal(1, 0.05);
      const foreign = l.billedIn;
      const amount = foreign ? roundTo(usd / foreign.usdPerUnit, foreign.decimals) : money(usd);
      rows.push({
        ...base(day, l.provider, l.subAccount, l.team === null ? null : { team: l.team }),
        ...(foreign ? { currency: foreign.currency, billingAccount: foreign.billingAccount, invoiceIssuer: foreign.invoiceIssuer } : {}),
        service: l.service,
        serviceCategory: l.category,
        resourceId: l.resourceId,
        chargeCategory: 'Usage',
        pricingCategory: 'Standard',
        billed: amount,
        effective: amount,
      });
    });

    if (commitmentPerDay > 0) {
      // The plan's recurring fee is billed for every hour of its term, used or not: the used part is
      // amortised into the covered hours above, the hours the run was stopped are unused commitment
      // (FOCUS: a Usage row with CommitmentDiscountStatus Unused, billed 0, at its amortised cost),
      // present only on a day with such hours, as on a real bill.
      const plan = { commitmentDiscountId: savingsPlan, commitmentDiscountType: SAVINGS_PLAN_TYPE, commitmentDiscountEnd: planEnds };
      const fee = money(commitmentPerDay);
      const unused = money(fee - covered);
      rows.push({
        ...base(day, 'aws', A.payer, null),
        ...plan,
        service: 'Savings Plans for AWS Compute usage',
        serviceCategory: 'Compute',
        resourceId: savingsPlan,
        chargeCategory: 'Purchase',
        chargeFrequency: 'Recurring',
        pricingCategory: 'Committed',
        billed: fee,
        effective: 0,
      });
      if (unused > 0)
        rows.push({
          ...base(day, 'aws', A.payer, null),
          ...plan,
          commitmentDiscountStatus: 'Unused',
          service: 'Savings Plans for AWS Compute usage',
          serviceCategory: 'Compute',
          resourceId: savingsPlan,
          chargeCategory: 'Usage',
          chargeFrequency: 'Usage-Based',
          pricingCategory: 'Committed',
          billed: 0,
          effective: unused,
        });
    }

    if (day.endsWith('-01')) {
      rows.push({
        ...base(day, 'aws', A.research, { team: 'research' }),
        chargeFrequency: 'One-Time',
        service: 'Amazon SageMaker',
        serviceCategory: 'AI and Machine Learning',
        resourceId: null,
        chargeCategory: 'Credit',
        pricingCategory: null,
        billed: -500,
        effective: -500,
      });
    }

    if (dayOf(n + 1).endsWith('-01')) {
      // Taxes arrive as one line per provider at the end of each billing period.
      const r = randomFor(seed, 'tax', day.slice(0, 7));
      for (const [provider, low, high] of [
        ['aws', 300, 420],
        ['gcp', 40, 70],
      ] as const) {
        const amount = money(r.between(low, high));
        rows.push({
          ...base(day, provider, provider === 'aws' ? A.payer : G.shared, null),
          service: 'Tax',
          serviceCategory: 'Other',
          resourceId: null,
          chargeCategory: 'Tax',
          chargeFrequency: 'One-Time',
          pricingCategory: null,
          billed: amount,
          effective: amount,
        });
      }
    }
    yield;
  }
  rows.push(...supportFeeRows(yesterday - days + 1, today, (day) => base(day, 'aws', A.payer, null)));
}

/**
 * The support fee of every month the window touches, on each day of the window and of the rest of
 * the current month (billed on the 1st for the whole month, as a FOCUS import spreads it): the
 * month's days share it evenly and the last day takes the rounding, so a month adds up to the fee.
 */
function supportFeeRows(firstDay: number, today: string, base: (day: string) => RowBase): SpendRow[] {
  const rows: SpendRow[] = [];
  const month = today.slice(0, 7);
  for (let n = firstDay; dayOf(n).slice(0, 7) <= month; n++) {
    const day = dayOf(n);
    const daysInMonth = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).getUTCDate();
    const share = money(SUPPORT_FEE_PER_MONTH / daysInMonth);
    const amount = Number(day.slice(8, 10)) === daysInMonth ? money(SUPPORT_FEE_PER_MONTH - share * (daysInMonth - 1)) : share;
    rows.push({
      ...base(day),
      service: 'AWS Support (Business)',
      serviceCategory: 'Management and Governance',
      resourceId: null,
      chargeCategory: 'Purchase',
      chargeFrequency: 'Recurring',
      pricingCategory: 'Standard',
      billed: amount,
      effective: amount,
    });
  }
  return rows;
}

const DAY_MS = 86_400_000;

/** The Savings Plan's name in its ARN, and its type as FOCUS's CommitmentDiscountType gives it. */
export const DEMO_SAVINGS_PLAN = 'demo-ec2-p5-1y';
const SAVINGS_PLAN_TYPE = 'EC2 Instance Savings Plan';

function unitTagsOf(tags: Record<string, string>, keys: UnitTagKeys | undefined): Pick<SpendRow, 'experiment' | 'run' | 'sweep'> {
  if (!keys) return {};
  return { experiment: ownerTagOf(tags, [keys.experiment]), run: ownerTagOf(tags, [keys.run]), sweep: ownerTagOf(tags, [keys.sweep]) };
}

function toDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function dayOf(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

function isWeekend(n: number): boolean {
  const weekday = new Date(n * DAY_MS).getUTCDay();
  return weekday === 0 || weekday === 6;
}

function money(value: number): number {
  return roundTo(value, 4);
}

function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}
