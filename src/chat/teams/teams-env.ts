import { BurnrateError } from '../../domain/errors.js';

/**
 * Each Teams setting under burnrate's name first, then the names the Microsoft 365 Agents SDK
 * reads (its samples' `.env`: clientId, tenantId, clientSecret, ...; matched in any case, as the
 * SDK does), so a bot set up from either documentation starts. AZURE_FEDERATED_TOKEN_FILE is what
 * AKS's workload identity webhook sets.
 */
const NAMES = {
  appId: ['MICROSOFT_APP_ID', 'clientId'],
  tenantId: ['MICROSOFT_APP_TENANT_ID', 'tenantId'],
  secret: ['MICROSOFT_APP_PASSWORD', 'clientSecret'],
  certPemFile: ['certPemFile'],
  certKeyFile: ['certKeyFile'],
  ficClientId: ['FICClientId', 'federatedClientId'],
  tokenFile: ['AZURE_FEDERATED_TOKEN_FILE', 'WIDAssertionFile', 'federatedTokenFile'],
  typeText: ['MICROSOFT_APP_TYPE'],
  sdkAuthType: ['authType'],
} as const;

type Key = keyof typeof NAMES;

/** The Teams variables that are set, by meaning; `setNames` lists the names found (never the values). */
export type TeamsEnv = Record<Exclude<Key, 'sdkAuthType'>, string | null> & { setNames(): string[] };

export function readTeamsEnv(env: NodeJS.ProcessEnv): TeamsEnv {
  const found: string[] = [];
  const value = (key: Key): string | null => {
    let chosen: { name: string; value: string } | null = null;
    for (const name of NAMES[key]) {
      const text = lookup(env, name);
      if (text === null) continue;
      if (key !== 'appId') found.push(name);
      // Two spellings that disagree: which one is meant cannot be guessed.
      if (chosen && chosen.value !== text)
        throw new BurnrateError(
          'burnrate_teams_env_conflict',
          `${chosen.name} and ${name} are both set, to different values`,
          `Keep one of them (${chosen.name} is burnrate's name, ${name} the Agents SDK's).`,
        );
      chosen ??= { name, value: text };
    }
    return chosen?.value ?? null;
  };
  const sdkAuthType = value('sdkAuthType');
  const typeText = value('typeText') ?? (sdkAuthType?.toLowerCase() === 'usermanagedidentity' ? 'UserAssignedMSI' : null);
  const read = {
    appId: value('appId'),
    tenantId: value('tenantId'),
    secret: value('secret'),
    certPemFile: value('certPemFile'),
    certKeyFile: value('certKeyFile'),
    ficClientId: value('ficClientId'),
    tokenFile: null as string | null,
    typeText,
  };
  // The workload identity token file is set by the platform for pods that use it for anything: it
  // only turns Teams on through an app id, so it is not among the names that say Teams is half set.
  const beforeTokenFile = [...found];
  read.tokenFile = value('tokenFile');
  return { ...read, setNames: () => beforeTokenFile };
}

/** A variable by its name, or by the same name in capitals (how the SDK reads its own); blank is unset. */
function lookup(env: NodeJS.ProcessEnv, name: string): string | null {
  const text = (env[name] ?? env[name.toUpperCase()])?.trim();
  return text ? text : null;
}
