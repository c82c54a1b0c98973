import type { Config } from '../../config/schema.js';
import { BurnrateError } from '../../domain/errors.js';
import { isLoopback } from '../../http/loopback.js';
import { readTeamsEnv } from './teams-env.js';

/** How the bot's Microsoft Entra app signs in (the Azure Bot resource's "Type of App"). */
export const APP_TYPES = ['MultiTenant', 'SingleTenant', 'UserAssignedMSI'] as const;
export type AppType = (typeof APP_TYPES)[number];

/**
 * What the bot proves its identity with when it asks Entra for a token (for the Bot Connector and
 * for Microsoft Graph alike). Secrets stay in these settings and nowhere else.
 */
export type BotCredential =
  /** A client secret of the app registration. */
  | { kind: 'secret'; secret: string }
  /** A certificate uploaded to the app registration: its PEM and its private key's PEM. */
  | { kind: 'certificate'; certPemFile: string; certKeyFile: string }
  /** UserAssignedMSI: the bot's app id is the client id of a user-assigned managed identity of the host. */
  | { kind: 'managedIdentity' }
  /** A federated credential: the app registration trusts a user-assigned managed identity of the host. */
  | { kind: 'federated'; managedIdentityClientId: string }
  /** Workload identity (AKS, or any OIDC issuer the app trusts): a projected token file. */
  | { kind: 'workloadIdentity'; tokenFile: string };

/** What burnrate needs from the environment to talk to Teams. */
export type TeamsSettings =
  | { insecure: false; appId: string; appType: AppType; tenantId: string | null; credential: BotCredential }
  /** BURNRATE_INSECURE_DEV=1 without an app id: no authentication at all, local testing only. */
  | { insecure: true };

const SECRET_HINT =
  'Set MICROSOFT_APP_PASSWORD (or clientSecret) to a client secret of the app; or certPemFile and certKeyFile for a certificate, FICClientId for a federated credential, MICROSOFT_APP_TYPE=UserAssignedMSI for a managed identity (docs/teams.md).';

/**
 * Reads the Teams settings: on when MICROSOFT_APP_ID (or the Agents SDK's clientId) is set, or
 * without authentication when BURNRATE_INSECURE_DEV=1 (local testing only); null: Teams is off. A
 * half configuration is an error that names what is missing, so a typo fails at start instead of
 * silently turning Teams off.
 */
export function readTeamsSettings(env: NodeJS.ProcessEnv): TeamsSettings | null {
  const read = readTeamsEnv(env);
  const { appId, tenantId, secret, certPemFile, certKeyFile, ficClientId, tokenFile, typeText } = read;

  if (!appId) {
    const others = read.setNames();
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
  const credential = pickCredential(appType, { secret, certPemFile, certKeyFile, ficClientId, tokenFile });
  if (appType !== 'MultiTenant' && !tenantId) {
    throw new BurnrateError(
      'burnrate_teams_config_incomplete',
      `MICROSOFT_APP_TYPE is ${appType} but MICROSOFT_APP_TENANT_ID is not set`,
      'Set MICROSOFT_APP_TENANT_ID (or tenantId) to the Directory (tenant) ID of the app registration.',
    );
  }
  return { insecure: false, appId, appType, tenantId, credential };
}

/** The one credential the environment describes; two at once is refused rather than one silently winning. */
function pickCredential(
  appType: AppType,
  found: {
    secret: string | null;
    certPemFile: string | null;
    certKeyFile: string | null;
    ficClientId: string | null;
    tokenFile: string | null;
  },
): BotCredential {
  if (appType === 'UserAssignedMSI') return { kind: 'managedIdentity' };
  const { secret, certPemFile, certKeyFile, ficClientId, tokenFile } = found;
  if (Boolean(certPemFile) !== Boolean(certKeyFile)) {
    throw new BurnrateError(
      'burnrate_teams_config_incomplete',
      `${certPemFile ? 'certPemFile' : 'certKeyFile'} is set but ${certPemFile ? 'certKeyFile' : 'certPemFile'} is not`,
      'A certificate needs both files: certPemFile (the certificate) and certKeyFile (its private key), PEM each.',
    );
  }
  const candidates: BotCredential[] = [
    ...(secret ? [{ kind: 'secret' as const, secret }] : []),
    ...(certPemFile && certKeyFile ? [{ kind: 'certificate' as const, certPemFile, certKeyFile }] : []),
    ...(ficClientId ? [{ kind: 'federated' as const, managedIdentityClientId: ficClientId }] : []),
  ];
  if (candidates.length > 1) {
    throw new BurnrateError(
      'burnrate_teams_credentials_conflict',
      `more than one credential is set for the bot (${candidates.map((c) => c.kind).join(', ')})`,
      'Keep one: a client secret, a certificate (certPemFile, certKeyFile) or a federated credential (FICClientId).',
    );
  }
  if (candidates[0]) return candidates[0];
  // Only where nothing else is set: AKS's workload identity webhook sets this file for every pod that asks.
  if (tokenFile) return { kind: 'workloadIdentity', tokenFile };
  throw new BurnrateError(
    'burnrate_teams_config_incomplete',
    `MICROSOFT_APP_ID is set but MICROSOFT_APP_PASSWORD is not, nor a certificate, a federated credential or a managed identity; a ${appType} bot needs one to sign in`,
    SECRET_HINT,
  );
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
      'Set MICROSOFT_APP_ID, MICROSOFT_APP_TENANT_ID and a credential (docs/teams.md), or BURNRATE_INSECURE_DEV=1 to test locally without authentication.',
    );
  }
  if (settings?.insecure && !isLoopback(host)) {
    throw new BurnrateError(
      'burnrate_teams_insecure_exposed',
      `BURNRATE_INSECURE_DEV=1 turns Teams authentication off, so burnrate will not listen on ${host} with it`,
      'Listen on 127.0.0.1 (the default HOST) for local testing, or set MICROSOFT_APP_ID, MICROSOFT_APP_TENANT_ID and a credential.',
    );
  }
}

/** The loud line `serve` prints when Teams runs without authentication. */
export const INSECURE_WARNING =
  'WARNING: teams: BURNRATE_INSECURE_DEV=1 and no MICROSOFT_APP_ID: requests to /api/messages are NOT authenticated; anyone who reaches this port can act as anyone. Local testing only.';
