import type { z } from 'zod';
import type { Config, configSchema } from '../../config/schema.js';
import parsedDemoConfig from './demo-config.json' with { type: 'json' };
import { DEMO_JPY } from './demo-spend.js';

/** Each demo team's Slack channel: ids that look real. */
const DEMO_SLACK_CHANNELS: Record<string, string> = {
  'ml-research': 'C0DEMORSRCH',
  'llm-training': 'C0DEMOLLMTR',
  inference: 'C0DEMOINFER',
  vision: 'C0DEMOVISON',
};

/**
 * The embedded demo organisation: four ML teams, chat ids that look real, and a demo source.
 * It is what burnrate runs on when no burnrate.yml exists, so `npm start` works on a fresh clone;
 * there (and in `burnrate demo`) with its Kubernetes cluster too (`cluster`, demo-cluster.ts).
 * llm-training is sized to head over its monthly budget; inference has a weekly budget too.
 *
 * It is demoSettings as burnrate.yml's schema reads them, kept parsed in demo-config.json (written
 * and checked by test/providers/demo/demo-config.test.ts): a command on the demo organisation
 * loads no zod and builds no schema, a third of `spend`'s start.
 */
export function demoConfig(options: { cluster?: boolean } = {}): Config {
  const config = structuredClone(parsedDemoConfig) as unknown as Config;
  config.sources = config.sources.map((source) => (source.type === 'demo' ? { ...source, cluster: options.cluster ?? false } : source));
  return config;
}

/** The demo organisation as a burnrate.yml would write it (before the schema's defaults). */
export function demoSettings(options: { cluster?: boolean } = {}): z.input<typeof configSchema> {
  return {
    ownership: { tagKeys: ['team', 'user:team'] },
    admins: ['U0DEMOADMIN'],
    teams: [
      {
        id: 'ml-research',
        name: 'ML Research',
        match: ['ml-research', 'research'],
        timezone: 'Europe/Berlin',
        owners: ['U0DEMOALICE'],
        approvers: ['U0DEMOBOB'],
        budget: { monthly: 60000, currency: 'USD', thresholds: [50, 80, 100], forecast: true },
        sweepCaps: { gpuHours: 800 }, // the ablation sweep stays under 700 GPU-hours a week
      },
      {
        id: 'llm-training',
        name: 'LLM Training',
        match: ['llm-training', 'llm'],
        timezone: 'America/Los_Angeles',
        owners: ['U0DEMOCAROL'],
        approvers: ['U0DEMODAN'],
        budget: { monthly: 150000, currency: 'USD', thresholds: [50, 80, 100], forecast: true },
        // The lr-warmup sweep (4× g5.12xlarge spot) spends $85–$470 in any week: over this cap, the demo's runaway sweep.
        sweepCaps: { spend: 80 },
      },
      {
        id: 'inference',
        name: 'Inference Platform',
        match: ['inference', 'serving'],
        timezone: 'America/New_York',
        owners: ['U0DEMOERIN'],
        approvers: ['U0DEMOFRANK'],
        budget: { monthly: 45000, weekly: 9000, currency: 'USD', thresholds: [50, 80, 100], forecast: true },
      },
      {
        id: 'vision',
        name: 'Computer Vision',
        match: ['vision', 'cv'],
        timezone: 'Asia/Kolkata',
        owners: ['U0DEMOGRACE'],
        approvers: ['U0DEMOHEIDI'],
        budget: { monthly: 30000, currency: 'USD', thresholds: [50, 80, 100], forecast: true },
      },
    ],
    sources: [{ type: 'demo', seed: 42, days: 90, cluster: options.cluster ?? false }],
    // The vision team's Tokyo account is billed in yen: converted at this rate wherever it is added up.
    fx: { base: 'USD', asOf: '2026-11-30', rates: { [DEMO_JPY.currency]: DEMO_JPY.usdPerUnit } },
    // The inference team's serving volume, for its cost per 1,000 predictions in the monthly review.
    unitCosts: { predictions: [{ team: 'inference', perMonth: 240_000_000 }] },
  };
}

/**
 * Each team's Slack channel, added after parsing: burnrate.yml's schema takes the chat platforms'
 * channel keys from the chat registry, a layer above this one (configSchemaWith in config/schema.ts).
 */
export function withDemoChannels(config: Config): Config {
  return { ...config, teams: config.teams.map((team) => ({ ...team, slack: { channel: DEMO_SLACK_CHANNELS[team.id]! } })) };
}
