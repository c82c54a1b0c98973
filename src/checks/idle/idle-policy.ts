import { z } from 'zod';
import { OPERATORS, type Operator } from '../compare.js';

// The idle policy is data, validated like the rest of burnrate.yml, so a team can tune it without
// code: every limit names its operator from the one operator table (compare.ts).

const operators = Object.keys(OPERATORS) as [Operator, ...Operator[]];

const threshold = (operator: Operator, value: number) =>
  z
    .strictObject({
      operator: z.enum(operators, { error: `expected one of ${operators.join(', ')}` }).default(operator),
      value: z.number({ error: 'expected a number' }).default(value),
    })
    .prefault({});

/** At most the longest lookback (gpu.lookbackHours: 14 days): a longer minimum could never be seen in the samples read. */
const MAX_MINUTES = 14 * 24 * 60;

const minutes = (value: number) =>
  z
    .number({ error: 'expected minutes' })
    .positive({ error: 'expected minutes above 0' })
    .max(MAX_MINUTES, { error: `expected at most ${MAX_MINUTES} minutes (14 days, the longest lookback)` })
    .default(value);

/** How samples without utilisation count: never decided by accident (DESIGN.md, "Checks are data-driven and pure"). */
export const MISSING_POLICIES = ['idle', 'busy', 'unknown'] as const;
export type MissingPolicy = (typeof MISSING_POLICIES)[number];

export const idlePolicySchema = z.strictObject({
  /** A sample is idle when its utilisation (0–100) passes this test. */
  util: threshold('lt', 5),
  /**
   * Optional confirmation by power draw, applied only to samples that have it. Off by default: idle
   * draw differs by model (an idle H100 SXM draws about 70 W, an L4 under 20 W), so one watt floor
   * for a mixed fleet would either miss idle H100s or confirm nothing.
   */
  power: threshold('lt', 60).nullable().default(null),
  minIdleMinutes: minutes(60),
  /** A job that holds GPU memory but computes nothing: hung on I/O, a dead peer, a breakpoint. null turns it off. */
  stalled: z
    .strictObject({
      util: threshold('lte', 1),
      memoryMiB: threshold('gt', 1024),
      minMinutes: minutes(30),
    })
    .nullable()
    .prefault({}),
  /** 'unknown' (the default) splits idle periods at gaps and reports the gaps, so no gap is counted as idle unasked. */
  missing: z.enum(MISSING_POLICIES, { error: 'expected idle, busy or unknown' }).default('unknown'),
  /**
   * Sources deliver the last samples late (Prometheus scrapes, CloudWatch's one-minute delay): an idle
   * period ending this close to now still counts as open.
   */
  maxLagMinutes: z
    .number({ error: 'expected minutes' })
    .nonnegative({ error: 'expected 0 or more minutes' })
    .max(24 * 60, { error: 'expected at most 1440 minutes (a day)' })
    .default(5),
  /**
   * Notebook servers of a notebook platform that culls idle servers itself (Kubeflow's notebook
   * culler, JupyterHub's idle culler, SageMaker Studio's idle shutdown): 'alert' (the default, as for any workload, the alert saying
   * what the platform's culling is set to) or 'defer' (no idle alert: the platform stops them). A
   * platform whose culling burnrate reads as off is alerted on either way.
   */
  notebooks: z.enum(['alert', 'defer'], { error: 'expected alert or defer' }).optional(),
});

export type IdlePolicy = z.output<typeof idlePolicySchema>;
export type Threshold = IdlePolicy['util'];

export const DEFAULT_IDLE_POLICY: IdlePolicy = idlePolicySchema.parse({});

/** The default policy with some settings changed, validated. */
export function idlePolicy(settings: z.input<typeof idlePolicySchema> = {}): IdlePolicy {
  return idlePolicySchema.parse(settings);
}
