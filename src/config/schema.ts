import { EXTENSION_DIMENSION } from '../domain/spend.js';
import { ENTRA_OBJECT_ID } from '../domain/entra-object-id.js';
import cron from 'node-cron';
import { deliverySchema } from './delivery-schema.js';
import { slackSchema } from './slack-schema.js';
import { z } from 'zod';
import { currencyCode } from './currency-schema.js';
import { fxSchema } from './fx-schema.js';
import { idlePolicySchema } from '../checks/idle/idle-policy.js';
import { workingHoursSchema } from '../checks/idle/working-hours-schema.js';
import { gpuInventorySourceSchema, gpuMetricsSourceSchema, namespaceName } from './gpu-sources-schema.js';
import { metricsSourceId } from './metrics-source-id.js';
import { recommendationsSchema, spotPolicySchema } from '../checks/recommend/recommend-policy.js';
import { sweepCapsSchema, sweepsSchema } from '../checks/sweeps/sweep-policy.js';
import { anomaliesSchema } from './anomalies-schema.js';
import { athenaSourceSchema } from './athena-config.js';
import { awsSourceSchema } from './aws-config.js';
import { gcpSourceSchema } from './gcp-config.js';
import type { ChatChannelDeclaration, ChatChannels } from './chat-channels.js';
import { chatChannelFields } from './chat-channel-fields.js';
import { nonEmpty } from './non-empty.js';

// Every object is strict: a misspelt key is reported, never silently ignored.
// Secrets have no place here; they come from the environment only.

const positiveAmount = z.number({ error: 'expected a positive number' }).positive({ error: 'expected a positive number' });

/**
 * Who holds a role: a chat user id (Slack U…/W…, a Teams 29: id or an Entra object id), a chat
 * user group by handle (`@ml-training-leads`: a Slack handle or an Entra group's mail nickname) or
 * id (Slack S…, an Entra group's object id), or an email address of a person.
 */
const person = nonEmpty('a chat user id, a user group (@handle) or an email').superRefine((ref, ctx) => {
  const problem = personProblem(ref);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
/** What is wrong with a role entry, said so it can be fixed; null when it is fine. */
function personProblem(ref: string): string | null {
  const guid = /^\{(.*)\}$/.exec(ref)?.[1];
  if (guid && ENTRA_OBJECT_ID.test(guid)) return `write the Entra object id without braces: ${guid}`;
  // Hex digits and dashes only: meant as an Entra object id, but one digit too many or too few (a copy cut short).
  if (/^[0-9a-f-]+$/i.test(ref) && ref.includes('-') && /[0-9]/.test(ref) && !ENTRA_OBJECT_ID.test(ref))
    return `"${ref}" looks like an Entra object id but is not one: expected 8-4-4-4-12 hex digits (Entra admin center → the user or group → Object ID)`;
  if (/^19:/.test(ref)) return `"${ref}" is a Teams conversation id, not a person: list people by Entra object id, or an Entra group`;
  if (/^[CGD][A-Z0-9]{8,}$/.test(ref))
    return `"${ref}" is a Slack channel id, not a person: list people by user id (U0123ABCD: their Slack profile → ⋮ → Copy member ID), a user group (@ml-leads) or an email`;
  // A bare lower-case word ("alice") names nobody any platform knows: no chat id is spelt so.
  if (/^[a-z][a-z0-9._-]*$/.test(ref) && !ENTRA_OBJECT_ID.test(ref))
    return `"${ref}" is neither a chat user id nor a group: write their user id (U0123ABCD, an Entra object id), the group with its @ (@${ref}) or their email (${ref}@example.com)`;
  if (/^@[A-Za-z0-9][A-Za-z0-9._-]*$|^[^\s@]+(@[^\s@]+\.[^\s@]+)?$/.test(ref)) return null;
  return 'expected a chat user id (U0123ABCD, an Entra object id), a user group (@ml-training-leads, S0123ABCD or an Entra group object id) or an email, without spaces';
}

const people = z.array(person, { error: 'expected a list of chat user ids or user groups (@handle)' }).default([]);

const timezone = nonEmpty('an IANA time zone such as Europe/Berlin').refine(isTimeZone, {
  error: 'expected an IANA time zone such as Europe/Berlin or America/New_York',
});

const hourMinute = z
  .string({ error: 'expected a time of day as HH:MM' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'expected a time of day as HH:MM, e.g. 08:30' });

export const budgetSchema = z.strictObject({
  monthly: positiveAmount.optional(),
  weekly: positiveAmount.optional(),
  currency: currencyCode.default('USD'),
  thresholds: z
    .array(z.number({ error: 'expected a percentage' }).positive({ error: 'expected a percentage above 0' }), {
      error: 'expected a list of percentages such as [50, 80, 100]',
    })
    .min(1, { error: 'expected at least one threshold' })
    .default([50, 80, 100])
    .transform((list) => [...new Set(list)].sort((a, b) => a - b)),
  forecast: z.boolean({ error: 'expected true or false' }).default(true),
});

/** The most answer worker threads: beyond this they only compete for the same SQLite file. */
export const MAX_ANSWER_WORKERS = 16;

/** What a team's idle-GPU alerts may do: notify only (buttons), approve, or act automatically. */
export const GPU_MODES = ['notify', 'approve', 'auto'] as const;
export type GpuMode = (typeof GPU_MODES)[number];

export const teamGpuSchema = z.strictObject({
  mode: z.enum(GPU_MODES, { error: 'expected notify, approve or auto' }).default('notify'),
  /** Mode auto: minutes from an instance's first idle alert to its automatic stop, for someone to click Keep. */
  autoStopAfterMinutes: z
    .number({ error: 'expected minutes' })
    .int({ error: 'expected whole minutes' })
    .min(0, { error: 'expected 0 or more minutes' })
    .max(7 * 24 * 60, { error: 'expected at most 10080 minutes (7 days)' })
    .default(60),
  /** The team's working hours (its own time zone); the gpu section's default when absent. */
  workingHours: workingHoursSchema.optional(),
  /** Kubernetes namespaces whose GPU pods are this team's, for instances without an ownership tag. */
  namespaces: z.array(namespaceName, { error: 'expected a list of Kubernetes namespaces' }).default([]),
});

const cronExpression = z
  .string({ error: 'expected a cron expression such as */15 * * * *' })
  .trim()
  .refine((expression) => cron.validate(expression), { error: 'expected a cron expression of 5 (or 6) fields, e.g. */15 * * * *' });

export const gpuSchema = z.strictObject({
  /** When the idle-GPU check runs. */
  check: cronExpression.default('*/15 * * * *'),
  idle: idlePolicySchema.prefault({}),
  /** Hours of metrics each run reads (see src/checks/idle/definition.ts); at least the longest minimum duration. */
  lookbackHours: z
    .number()
    .positive({ error: 'expected hours above 0' })
    .max(24 * 14)
    .default(24),
  workingHours: workingHoursSchema.prefault({}),
  /**
   * Where idle GPUs of no team (untagged, or a tag no team matches) are reported; admins act on them.
   * A channel on each chat platform, by the platform's key: `configSchemaWith` adds the keys.
   */
  unowned: z.strictObject({}).optional(),
  /** Where GPU metrics come from (Prometheus with the DCGM exporter, CloudWatch agent); the demo brings its own. */
  metrics: z.array(gpuMetricsSourceSchema, { error: 'expected a list of GPU metrics sources' }).default([]),
  /** Where the GPU instances are listed, with type, price, region and tags. */
  inventory: z.array(gpuInventorySourceSchema, { error: 'expected a list of GPU inventories' }).default([]),
});

export const teamSchema = z.strictObject({
  // At most 48 characters: a finding id carries it, and Slack caps a menu option's value at 150.
  id: nonEmpty('a team id')
    .regex(/^[a-z0-9][a-z0-9_-]*$/, { error: 'expected a lower-case id of letters, digits, - and _ (e.g. ml-research)' })
    .max(48, { error: 'expected a team id of at most 48 characters' }),
  name: nonEmpty('a display name').optional(),
  match: z.array(nonEmpty('a tag value'), { error: 'expected a list of tag values' }).default([]),
  timezone: timezone.default('UTC'),
  owners: people,
  approvers: people,
  budget: budgetSchema.optional(),
  gpu: teamGpuSchema.prefault({}),
  /** Caps on one sweep's spend or GPU-hours within `sweeps.windowHours`; no caps, no sweep alerts. */
  sweepCaps: sweepCapsSchema.optional(),
  /** Spend anomalies: a day above its expected value by the floor and the deviations (on by default). */
  anomalies: anomaliesSchema.prefault({}),
  /** A summary in the team's channel: yesterday's spend (daily) or last week's (weekly, on Mondays); off by default. */
  digest: z.enum(['daily', 'weekly', 'off'], { error: 'expected daily, weekly or off' }).default('off'),
});

/** Which tags name the experiment, training run and sweep a cost belongs to, for unit costs. */
export const unitCostsSchema = z.strictObject({
  tagKeys: z
    .strictObject({
      experiment: nonEmpty('a tag key').default('experiment'),
      run: nonEmpty('a tag key').default('run_id'),
      sweep: nonEmpty('a tag key').default('sweep'),
    })
    .prefault({}),
  /** Predictions served per month by a team's inference services: cost per 1,000 predictions. */
  predictions: z
    .array(
      z.strictObject({
        team: nonEmpty('a team id'),
        perMonth: z
          .number({ error: 'expected a number of predictions per month' })
          .int({ error: 'expected a whole number' })
          .positive({ error: 'expected a positive number' }),
      }),
      { error: 'expected a list of { team, perMonth }' },
    )
    .default([]),
});

/** The monthly cost review: when reminders go out and how the thread is sized. */
export const reviewSchema = z.strictObject({
  /** Local time (team time zone) on the first working day of the month. */
  at: hourMinute.default('09:00'),
  lines: z.number().int().min(1, { error: 'expected 1 to 10 lines' }).max(10, { error: 'expected 1 to 10 lines' }).default(10),
  reminderAfterWorkingDays: z.number().int().min(1).max(20).default(3),
});

const focusSource = z.strictObject({
  type: z.literal('focus'),
  id: nonEmpty('a source id').optional(),
  paths: z.array(nonEmpty('a file path or glob'), { error: 'expected a list of file paths or globs' }).min(1, {
    error: 'expected at least one path, e.g. [exports/*.parquet]',
  }),
  /** Provider columns (x_UsageType, x_Operation...) to keep, so spend can be grouped by them: `spend --by x_UsageType`. */
  dimensions: z
    .array(
      z
        .string()
        .regex(EXTENSION_DIMENSION, { error: 'expected a provider column of the export, named x_… as FOCUS names them, e.g. x_UsageType' }),
      { error: 'expected a list of provider columns, e.g. [x_UsageType, x_Operation]' },
    )
    .max(5, { error: 'keep at most 5 provider columns: each one multiplies the rows stored' })
    .default([]),
  /** Cost lines above this amount (in their own currency) are imported with a warning naming them; default 1,000,000. */
  lineCostCeiling: z
    .number({ error: 'expected an amount per cost line, e.g. 1000000' })
    .positive({ error: 'expected an amount above 0' })
    .max(1e15)
    .optional(),
});

const demoSource = z.strictObject({
  type: z.literal('demo'),
  id: nonEmpty('a source id').optional(),
  seed: z.number().int({ error: 'expected an integer seed' }).default(42),
  days: z.number().int().min(7, { error: 'expected at least 7 days' }).max(730).default(90),
  /** A small Kubernetes cluster beside the demo fleet (src/providers/demo/demo-cluster.ts). */
  cluster: z.boolean({ error: 'expected true or false' }).default(false),
});

export const sourceSchema = z.discriminatedUnion('type', [focusSource, demoSource, awsSourceSchema, gcpSourceSchema, athenaSourceSchema], {
  error: 'expected a source with type focus, demo, aws, gcp or athena',
});

/** burnrate.yml without the chat platforms' channel keys (a team's `slack:`…): the loader parses with `configSchemaWith`. */
export const configSchema = z
  .strictObject({
    ownership: z
      .strictObject({
        tagKeys: z.array(nonEmpty('a tag key'), { error: 'expected a list of tag keys' }).min(1).default(['team']),
      })
      .default({ tagKeys: ['team'] }),
    admins: people,
    teams: z.array(teamSchema, { error: 'expected a list of teams' }).default([]),
    sources: z.array(sourceSchema, { error: 'expected a list of sources' }).default([{ type: 'demo', seed: 42, days: 90, cluster: false }]),
    schedule: z
      .strictObject({
        budgetCheck: hourMinute.default('08:00'),
      })
      .default({ budgetCheck: '08:00' }),
    /**
     * What serve's /metrics shows beyond burnrate's own health: each team's spend, forecast, idle
     * cost and waste only when asked (they name teams and money, and a scrape is not a chat channel).
     */
    metrics: z.strictObject({ teamCosts: z.boolean({ error: 'expected true or false' }).default(false) }).prefault({}),
    /** When digests go out (in each team's time zone), and the organisation's digest for admins. */
    digest: z
      .strictObject({
        at: hourMinute.default('09:00'),
        organisation: z.enum(['daily', 'weekly', 'off'], { error: 'expected daily, weekly or off' }).default('off'),
      })
      .prefault({}),
    forecast: z
      .strictObject({
        lookbackDays: z.number().int().min(7, { error: 'expected at least 7 days' }).max(180).default(28),
      })
      .default({ lookbackDays: 28 }),
    gpu: gpuSchema.prefault({}),
    /** Exchange rates to each team's budget currency, for spend in other currencies. */
    fx: fxSchema,
    /** Slash-command answers: worker threads computing them off the thread that acknowledges (0: in process). */
    answers: z
      .strictObject({
        workers: z
          .number({ error: 'expected a whole number of worker threads' })
          .int({ error: 'expected a whole number of worker threads' })
          .min(0, { error: 'expected 0 (answer in process) or more' })
          .max(MAX_ANSWER_WORKERS, { error: `expected at most ${MAX_ANSWER_WORKERS} worker threads` })
          .optional(),
      })
      .prefault({}),
    /** How alerts are retried while a chat platform is throttling or down. */
    delivery: deliverySchema.prefault({}),
    /** How Slack lets burnrate read history (the look for a post whose answer was lost). */
    slack: slackSchema.prefault({}),
    /** Cloud actions (stopping instances) are dry runs until this is true. */
    actions: z.strictObject({ enabled: z.boolean({ error: 'expected true or false' }).default(false) }).prefault({}),
    /** Right-size and spot recommendations: what counts as oversized, how savings are counted. */
    recommendations: recommendationsSchema.prefault({}),
    /** Spot migration approvals: readiness and how many approvers a saving needs. */
    spot: spotPolicySchema.prefault({}),
    /** Runaway sweeps: which tag names a sweep and the window caps apply to (caps are per team). */
    sweeps: sweepsSchema.prefault({}),
    unitCosts: unitCostsSchema.prefault({}),
    /** Showback: who is charged the unused part of commitments (Savings Plans, reservations, CUDs). */
    showback: z.strictObject({ commitmentOwner: nonEmpty('a team id').optional() }).prefault({}),
    review: reviewSchema.prefault({}),
    /** The waste diagnosis (`burnrate waste`). */
    waste: z
      .strictObject({
        /** Inference GPUs under this utilisation (0–100), outside idle time, are capacity kept up outside traffic. */
        inferenceUtilFloor: z
          .number({ error: 'expected a percentage' })
          .gt(0, { error: 'expected a percentage above 0' })
          .max(100, { error: 'expected a percentage of at most 100' })
          .default(30),
      })
      .prefault({}),
    /** Where alerts link to: `grafana`, a DCGM dashboard URL with {instance}, {host} and {gpu} in it. */
    links: z
      .strictObject({
        grafana: nonEmpty('a URL')
          .regex(/^https?:\/\/\S+$/, {
            error: 'expected an http(s) URL such as https://grafana.example.com/d/dcgm?var-instance={instance}',
          })
          .optional(),
      })
      .prefault({}),
    /**
     * Where state lives: the embedded SQLite file (the default), or a shared Postgres database for
     * several replicas, its URL read from the environment variable `urlEnv` (a secret: never in this file).
     */
    store: z
      .strictObject({
        postgres: z
          .strictObject({
            urlEnv: nonEmpty('an environment variable name')
              .regex(/^[A-Z_][A-Z0-9_]*$/, { error: 'expected the name of an environment variable, such as DATABASE_URL' })
              .default('DATABASE_URL'),
          })
          .optional(),
      })
      .prefault({}),
  })
  .superRefine((config, ctx) => {
    const longest = Math.max(config.gpu.idle.minIdleMinutes, config.gpu.idle.stalled?.minMinutes ?? 0);
    if (config.gpu.lookbackHours * 60 < longest) {
      ctx.addIssue({
        code: 'custom',
        path: ['gpu', 'lookbackHours'],
        message: `expected at least ${Math.ceil(longest / 60)} hours: the idle policy needs ${longest} minutes of samples`,
      });
    }
    checkGpuSources(config, ctx);
    const seen = new Map<string, number>();
    config.teams.forEach((team, index) => {
      const first = seen.get(team.id);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['teams', index, 'id'], message: `duplicate team id "${team.id}" (also teams[${first}])` });
      }
      seen.set(team.id, index);
    });
    config.unitCosts.predictions.forEach((entry, index) => {
      if (!seen.has(entry.team)) {
        ctx.addIssue({
          code: 'custom',
          path: ['unitCosts', 'predictions', index, 'team'],
          message: `unknown team "${entry.team}"; expected one of ${[...seen.keys()].join(', ') || '(no teams)'}`,
        });
      }
    });
    const sourceIds = new Map<string, number>();
    config.sources.forEach((source, index) => {
      const id = source.id ?? source.type;
      const first = sourceIds.get(id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['sources', index, 'id'],
          message: `duplicate source id "${id}" (also sources[${first}]): give each source its own id`,
        });
      }
      sourceIds.set(id, index);
      const anomalyTeams =
        source.type === 'aws'
          ? (source.anomalies?.monitors ?? []).map((m, i) => [m.team, ['monitors', i]] as const)
          : source.type === 'gcp'
            ? (source.anomalies?.scopes ?? []).map((s, i) => [s.team, ['scopes', i]] as const)
            : [];
      for (const [team, at] of anomalyTeams)
        if (!seen.has(team))
          ctx.addIssue({
            code: 'custom',
            path: ['sources', index, 'anomalies', ...at, 'team'],
            message: `unknown team "${team}"; expected one of ${[...seen.keys()].join(', ') || '(no teams)'}`,
          });
      if (source.type === 'gcp' && source.budgets && !source.billingAccount) {
        ctx.addIssue({
          code: 'custom',
          path: ['sources', index, 'billingAccount'],
          message: 'expected the billing account whose budgets to read (e.g. 012345-6789AB-CDEF01), or remove budgets',
        });
      }
    });
  });

/**
 * burnrate.yml's schema with a channel key under each team and under `gpu.unowned` for each chat
 * platform declared: what the loader parses with. The chat registry declares the platforms
 * (chat/platforms.ts, `CHAT_CHANNELS`); this layer sits below it, so it is handed them.
 */
export function configSchemaWith(channels: readonly ChatChannelDeclaration[]): typeof configSchema {
  const fields = chatChannelFields(channels);
  // Extended as plain objects and typed as the schema without channels: each platform types its key
  // on TeamConfig by declaration merging (ChatChannels), which a list known only at run time cannot.
  const extend = (schema: unknown, shape: z.ZodRawShape) => (schema as z.ZodObject).safeExtend(shape);
  return extend(configSchema, {
    teams: z.array(extend(teamSchema, fields), { error: 'expected a list of teams' }).default([]),
    gpu: extend(gpuSchema, { unowned: z.strictObject(fields).optional() }).prefault({}),
  }) as unknown as typeof configSchema;
}

export type TeamConfig = z.output<typeof teamSchema> & ChatChannels;
export type GpuConfig = Omit<z.output<typeof gpuSchema>, 'unowned'> & { unowned?: ChatChannels | undefined };
export type Config = Omit<z.output<typeof configSchema>, 'teams' | 'gpu'> & { teams: TeamConfig[]; gpu: GpuConfig };
export type BudgetConfig = z.output<typeof budgetSchema>;
export type TeamGpuConfig = z.output<typeof teamGpuSchema>;
export type UnitCostsConfig = z.output<typeof unitCostsSchema>;
export type SourceConfig = z.output<typeof sourceSchema>;

/** Metrics and inventory come together (a series alone has no price or team); ids and namespaces are unique. */
function checkGpuSources(config: { gpu: GpuConfig; teams: TeamConfig[] }, ctx: z.RefinementCtx): void {
  const { metrics, inventory } = config.gpu;
  if (metrics.length > 0 && inventory.length === 0)
    ctx.addIssue({
      code: 'custom',
      path: ['gpu', 'inventory'],
      message:
        'expected a GPU inventory beside gpu.metrics, e.g. [{ type: ec2, regions: [us-east-1] }]: metrics alone say nothing of price or owner',
    });
  // SageMaker Studio publishes no GPU metrics: its apps are judged by Studio's own record of activity.
  if (inventory.some((source) => source.type !== 'sagemaker-studio') && metrics.length === 0)
    ctx.addIssue({
      code: 'custom',
      path: ['gpu', 'metrics'],
      message: 'expected at least one GPU metrics source beside gpu.inventory, e.g. [{ type: prometheus, url: http://prometheus:9090 }]',
    });
  const ids = new Map<string, number>();
  metrics.forEach((source, index) => {
    const id = metricsSourceId(source);
    const first = ids.get(id);
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['gpu', 'metrics', index, 'id'],
        message: `duplicate metrics source id "${id}" (also gpu.metrics[${first}]): give each an id`,
      });
    ids.set(id, index);
  });
  const owners = new Map<string, string>();
  config.teams.forEach((team, index) =>
    team.gpu.namespaces.forEach((namespace, n) => {
      const other = owners.get(namespace);
      if (other !== undefined && other !== team.id)
        ctx.addIssue({
          code: 'custom',
          path: ['teams', index, 'gpu', 'namespaces', n],
          message: `namespace "${namespace}" is already team ${other}'s`,
        });
      owners.set(namespace, team.id);
    }),
  );
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
