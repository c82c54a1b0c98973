import type { Config } from '../../config/schema.js';
import { BurnrateError } from '../../domain/errors.js';
import { isLoopback } from '../../http/loopback.js';

/** How the bot's Microsoft Entra app signs in (the Azure Bot resource's "Type of App"). */
export const APP_TYPES = ['MultiTenant', 'SingleTenant', 'UserAssignedMSI'] as const;
export type AppType = (typeof APP_TYPES)[number];

/** What burnrate needs from the environment to talk to Teams. Secrets live here and nowhere else. */
export type TeamsSettings =
  | { insecure: false; appId: string; appType: AppType; password: string | null; tenantId: string | null }
  /** BURNRATE_INSECURE_DEV=1 without an app id: no authentication at all, local testing only. */
  | { insecure: true };

/**
 * Reads the Teams settings: on when MICROSOFT_APP_ID is set, or without authentication when
 * BURNRATE_INSECURE_DEV=1 (local testing only); null: Teams is off. A half configuration is an
 * error that names what is missing, so a typo fails at start instead of silently turning Teams off.
 */
export function readTeamsSettings(env: NodeJS.ProcessEnv): TeamsSettings | null {
  const appId = nonBlank(env.MICROSOFT_APP_ID);
  const password = nonBlank(env.MICROSOFT_APP_PASSWORD);
  const tenantId = nonBlank(env.MICROSOFT_APP_TENANT_ID);
  const typeText = nonBlank(env.MICROSOFT_APP_TYPE);

  if (!appId) {
    const others = [
      ...(password ? ['MICROSOFT_APP_PASSWORD'] : []),
      ...(tenantId ? ['MICROSOFT_APP_TENANT_ID'] : []),
      ...(typeText ? ['MICROSOFT_APP_TYPE'] : []),
    ];
    if (others.length > 0) {
      throw new BurnrateError(
        'burnrate_teams_config_incomplete',
        `${others.join(' and ')} ${others.length > 1 ? 'are' : 'is'} set but MICROSOFT_APP_ID is not`,
        "Set MICROSOFT_APP_ID to the bot's Microsoft App ID (Azure Bot → Configuration), or unset the others to run without Teams.",
      );
    }
    return env.BURNRATE_INSECURE_DEV === '1' ? { insecure: true } : null;
  }

  const appType = parseAppType(typeText, tenantId);
  if (appType !== 'UserAssignedMSI' && !password) {
    throw new BurnrateError(
      'burnrate_teams_config_incomplete',
      `MICROSOFT_APP_ID is set but MICROSOFT_APP_PASSWORD is not; a ${appType} bot signs in with its client secret`,
      'Set MICROSOFT_APP_PASSWORD to a client secret of the app (Azure Bot → Configuration → Manage Password), or MICROSOFT_APP_TYPE=UserAssignedMSI for a managed identity.',
    );
  }
  if (appType !== 'MultiTenant' && !tenantId) {
    throw new BurnrateError(
      'burnrate_teams_config_incomplete',
      `MICROSOFT_APP_TYPE is ${appType} but MICROSOFT_APP_TENANT_ID is not set`,
      'Set MICROSOFT_APP_TENANT_ID to the Directory (tenant) ID of the app registration.',
    );
  }
  return { insecure: false, appId, appType, password, tenantId };
}

/** Unset: SingleTenant when a tenant is given (what Azure creates for new bots), else MultiTenant. */
function parseAppType(text: string | null, tenantId: string | null): AppType {
  if (!text) return tenantId ? 'SingleTenant' : 'MultiTenant';
  const found = APP_TYPES.find((t) => t.toLowerCase() === text.toLowerCase());
  if (!found) {
    throw new BurnrateError(
      'burnrate_teams_app_type',
      `MICROSOFT_APP_TYPE is "${text}"`,
      `Set it to one of ${APP_TYPES.join(', ')} (Azure Bot → Configuration → Type of App).`,
    );
  }
  return found;
}

function nonBlank(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/**
 * What `serve` refuses before starting: teams with an msteams channel but no way to authenticate
 * Teams (anyone could post activities as anyone), and the unauthenticated mode on an address
 * other machines can reach.
 */
export function checkTeamsCanServe(settings: TeamsSettings | null, config: Pick<Config, 'teams'>, host: string): void {
  const withChannel = config.teams.filter((t) => t.msteams).map((t) => t.id);
  if (!settings && withChannel.length > 0) {
    throw new BurnrateError(
      'burnrate_teams_no_app_id',
      `team${withChannel.length > 1 ? 's' : ''} ${withChannel.join(', ')} ${withChannel.length > 1 ? 'have' : 'has'} an msteams channel, but MICROSOFT_APP_ID is not set, so Teams requests could not be authenticated`,
      'Set MICROSOFT_APP_ID and MICROSOFT_APP_PASSWORD (README, "Microsoft Teams"), or BURNRATE_INSECURE_DEV=1 to test locally without authentication.',
    );
  }
  if (settings?.insecure && !isLoopback(host)) {
    throw new BurnrateError(
      'burnrate_teams_insecure_exposed',
      `BURNRATE_INSECURE_DEV=1 turns Teams authentication off, so burnrate will not listen on ${host} with it`,
      'Listen on 127.0.0.1 (the default HOST) for local testing, or set MICROSOFT_APP_ID and MICROSOFT_APP_PASSWORD.',
    );
  }
}

/** The loud line `serve` prints when Teams runs without authentication. */
export const INSECURE_WARNING =
  'WARNING: teams: BURNRATE_INSECURE_DEV=1 and no MICROSOFT_APP_ID: requests to /api/messages are NOT authenticated; anyone who reaches this port can act as anyone. Local testing only.';
