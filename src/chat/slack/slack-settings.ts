import { BurnrateError } from '../../domain/errors.js';

/** What burnrate needs from the environment to talk to Slack. Secrets live here and nowhere else. */
export interface SlackSettings {
  botToken: string;
  /** Verifies Slack's HTTP requests. Required in HTTP mode; Socket Mode has no requests to verify. */
  signingSecret: string | null;
  /** An app-level token (xapp-...) switches to Socket Mode: no public URL needed. */
  appToken: string | null;
  /** Base of the Web API, `https://slack.com/api/` unless a test points it at a fake. */
  apiUrl: string | null;
}

/**
 * Reads the Slack settings from the environment: null when Slack is not configured at all, and a
 * clear error when it is half configured, so a typo in one variable fails at start instead of
 * silently falling back to the terminal. HTTP mode needs the bot token and the signing secret;
 * Socket Mode (SLACK_APP_TOKEN set) needs the bot token and an app-level token.
 */
export function readSlackSettings(env: NodeJS.ProcessEnv): SlackSettings | null {
  const botToken = nonBlank(env.SLACK_BOT_TOKEN);
  const signingSecret = nonBlank(env.SLACK_SIGNING_SECRET);
  const appToken = nonBlank(env.SLACK_APP_TOKEN);
  if (!botToken && !signingSecret && !appToken) return null;
  const required = appToken ? ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN'] : ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET'];
  const values: Record<string, string | null> = {
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_APP_TOKEN: appToken,
  };
  const missing = required.filter((name) => !values[name]);
  if (missing.length > 0) {
    const present = Object.keys(values).filter((name) => values[name]);
    const mode = appToken
      ? 'Socket Mode needs SLACK_BOT_TOKEN and SLACK_APP_TOKEN'
      : 'Slack needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (HTTP mode), or SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode)';
    throw new BurnrateError(
      'burnrate_slack_config_incomplete',
      `${list(present)} ${present.length > 1 ? 'are' : 'is'} set but ${list(missing)} ${missing.length > 1 ? 'are' : 'is'} not; ${mode}`,
      `Set ${missing.map((m) => `${m} (${WHERE[m]})`).join(' and ')}, or unset ${list(present)} to run without Slack.`,
      2,
    );
  }
  if (appToken) checkAppToken(appToken);
  return { botToken: botToken ?? '', signingSecret, appToken, apiUrl: nonBlank(env.SLACK_API_URL) };
}

/**
 * Slack answers apps.connections.open with `not_allowed_token_type` when given a bot or user
 * token, and the Socket Mode client retries that forever: `serve` would hang without a word.
 * The usual mistake (pasting the xoxb- token twice) is caught here, naming only the prefix.
 */
function checkAppToken(token: string): void {
  if (token.startsWith('xapp-')) return;
  const prefix = /^x[a-z]{2,4}-/.exec(token)?.[0];
  throw new BurnrateError(
    'burnrate_slack_app_token_invalid',
    `SLACK_APP_TOKEN must be an app-level token starting with xapp-, ${prefix ? `but it starts with ${prefix}${prefix === 'xoxb-' ? ' (that is the bot token)' : ''}` : 'but it does not look like a Slack token'}`,
    `Generate one under Basic Information → App-Level Tokens with the connections:write scope, or unset SLACK_APP_TOKEN to use HTTP mode.`,
    2,
  );
}

/** Where each secret is found in the Slack app's settings, for the error that asks for it. */
const WHERE: Record<string, string> = {
  SLACK_BOT_TOKEN: 'OAuth & Permissions → Bot User OAuth Token',
  SLACK_SIGNING_SECRET: 'Basic Information → Signing Secret',
  SLACK_APP_TOKEN: 'Basic Information → App-Level Tokens, scope connections:write',
};

function list(names: string[]): string {
  return names.join(' and ');
}

function nonBlank(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
