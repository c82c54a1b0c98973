import { readFileSync } from 'node:fs';
import {
  ClientAssertionCredential,
  ClientCertificateCredential,
  ClientSecretCredential,
  ManagedIdentityCredential,
  WorkloadIdentityCredential,
  type TokenCredential,
  type TokenCredentialOptions,
} from '@azure/identity';
import { BurnrateError } from '../../domain/errors.js';
import type { BotCredential } from './teams-settings.js';

/**
 * How the credentials reach Entra: public Azure (or AZURE_AUTHORITY_HOST) unless given. Tests pass
 * the fake's host and a transport; a sovereign cloud sets AZURE_AUTHORITY_HOST.
 */
export interface EntraOptions {
  authorityHost?: string;
  /** Skips asking Entra which authorities exist: for an authority Entra does not list (a test's). */
  disableInstanceDiscovery?: boolean;
  /** @azure/core-rest-pipeline's HttpClient, for a test's transport. */
  httpClient?: TokenCredentialOptions['httpClient'];
}

/** The audience a managed identity's token has when it stands in for the app's secret (a federated credential). */
const TOKEN_EXCHANGE_SCOPE = 'api://AzureADTokenExchange/.default';

/**
 * The bot's app signing in to Entra in `tenantId` with the credential its settings name: a client
 * secret, a certificate, a user-assigned managed identity (the app id is the identity's client id),
 * a federated credential (a managed identity's token as the app's assertion) or workload identity.
 * One credential serves both the Bot Connector and Microsoft Graph; @azure/identity caches and
 * renews its tokens, and none of it reaches a log.
 */
export function botCredential(appId: string, tenantId: string, credential: BotCredential, options: EntraOptions = {}): TokenCredential {
  const common = {
    ...(options.authorityHost ? { authorityHost: options.authorityHost } : {}),
    ...(options.disableInstanceDiscovery ? { disableInstanceDiscovery: true } : {}),
    ...(options.httpClient ? { httpClient: options.httpClient } : {}),
  };
  switch (credential.kind) {
    case 'secret':
      return new ClientSecretCredential(tenantId, appId, credential.secret, common);
    case 'certificate':
      return new ClientCertificateCredential(
        tenantId,
        appId,
        // @azure/identity takes one PEM holding the private key and the certificate.
        { certificate: `${readPem(credential.certKeyFile, 'certKeyFile')}\n${readPem(credential.certPemFile, 'certPemFile')}` },
        common,
      );
    case 'managedIdentity':
      return new ManagedIdentityCredential({ clientId: appId, ...common });
    case 'federated': {
      const identity = new ManagedIdentityCredential({ clientId: credential.managedIdentityClientId, ...common });
      return new ClientAssertionCredential(
        tenantId,
        appId,
        async () => {
          const token = await identity.getToken(TOKEN_EXCHANGE_SCOPE);
          if (!token) throw new Error('the managed identity gave no token for the federated credential');
          return token.token;
        },
        common,
      );
    }
    case 'workloadIdentity':
      return new WorkloadIdentityCredential({ tenantId, clientId: appId, tokenFilePath: credential.tokenFile, ...common });
  }
}

/** A PEM file of the certificate credential; one that cannot be read stops the start with its name, not a stack. */
function readPem(path: string, variable: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new BurnrateError(
      'burnrate_teams_certificate_unreadable',
      `${variable} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
      "Point certPemFile at the certificate uploaded to the bot's app registration and certKeyFile at its private key, PEM files both.",
    );
  }
}

/** Where a multi-tenant bot gets its Bot Connector tokens: the Bot Framework's own tenant. */
export const BOT_FRAMEWORK_TENANT = 'botframework.com';
