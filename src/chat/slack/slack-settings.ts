import { BurnrateError } from '../../errors.js';

/** What burnrate needs from the environment to talk to Slack. Secrets live here and nowhere else. */
export interface SlackSettings {
  botToken: string;
  signingSecret: string;
  /** An app-level token (xapp-...) switches to Socket Mode: no public URL needed. */
  appToken: string | null;
  /** Base of the Web API, `https://slack.com/api/` unless a test points it at a fake. */
  apiUrl: string | null;
}

/**
 * Reads the Slack settings from the environment: null when Slack is not configured at all, and a
 * clear error when it is half configured, so a typo in one variable fails at start instead of
 * silently falling back to the terminal.
 */
export function readSlackSettings(env: NodeJS.ProcessEnv): SlackSettings | null {
  const botToken = nonBlank(env.SLACK_BOT_TOKEN);
  const signingSecret = nonBlank(env.SLACK_SIGNING_SECRET);
  const appToken = nonBlank(env.SLACK_APP_TOKEN);
  if (!botToken && !signingSecret && !appToken) return null;
  if (!botToken || !signingSecret) {
    const missing = [...(botToken ? [] : ['SLACK_BOT_TOKEN']), ...(signingSecret ? [] : ['SLACK_SIGNING_SECRET'])];
    const present = [...(botToken ? ['SLACK_BOT_TOKEN'] : []), ...(signingSecret ? ['SLACK_SIGNING_SECRET'] : []), ...(appToken ? ['SLACK_APP_TOKEN'] : [])];
    throw new BurnrateError(
      'burnrate_slack_config_incomplete',
      `${present.join(' and ')} ${present.length > 1 ? 'are' : 'is'} set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not; Slack needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET`,
      `Set ${missing.map((m) => `${m} (${WHERE[m]})`).join(' and ')}, or unset ${present.join(' and ')} to run without Slack.`,
      2,
    );
  }
  return { botToken, signingSecret, appToken, apiUrl: nonBlank(env.SLACK_API_URL) };
}

/** Where each secret is found in the Slack app's settings, for the error that asks for it. */
const WHERE: Record<string, string> = {
  SLACK_BOT_TOKEN: 'OAuth & Permissions → Bot User OAuth Token',
  SLACK_SIGNING_SECRET: 'Basic Information → Signing Secret',
};

function nonBlank(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
