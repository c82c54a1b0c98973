import type { TokenCredential } from '@azure/identity';
import type { AuthConfiguration, AuthProvider, Connections } from '@microsoft/agents-hosting';

/**
 * The Agents SDK's connections, answered by one @azure/identity credential: the CloudAdapter asks
 * its connection manager for a token for the Bot Connector (scope https://api.botframework.com)
 * whenever it calls the connector, inbound or proactive. The SDK's own MSAL provider covers the
 * same credentials, but one credential for the connector and Graph means one sign-in story to
 * set up, renew and test. burnrate is one bot: every conversation uses the one connection.
 */
export function credentialConnections(credential: TokenCredential, settings: AuthConfiguration): Connections {
  const provider = credentialAuthProvider(credential, settings);
  return {
    getConnection: () => provider,
    getDefaultConnection: () => provider,
    getTokenProvider: () => provider,
    getTokenProviderFromActivity: () => provider,
    getDefaultConnectionConfiguration: () => settings,
  };
}

/** The bot could not get its token: nothing reached the Bot Connector. Entra's words (error codes, never the secret) stay in the message. */
export class BotSignInError extends Error {
  override readonly name = 'BotSignInError';
}

function credentialAuthProvider(credential: TokenCredential, settings: AuthConfiguration): AuthProvider {
  const unsupported = (what: string) => () => Promise.reject(new Error(`burnrate's Teams bot does not use ${what}`));
  return {
    connectionSettings: settings,
    async getAccessToken(authConfigOrScope: AuthConfiguration | string, scope?: string): Promise<string> {
      const resource = typeof authConfigOrScope === 'string' ? authConfigOrScope : scope;
      if (!resource) throw new Error('no scope asked for the Bot Connector token');
      let token: { token: string } | null;
      try {
        token = await credential.getToken(resource.endsWith('/.default') ? resource : `${resource}/.default`);
      } catch (error) {
        throw new BotSignInError(`the bot could not sign in to Entra for the Bot Connector: ${(error as Error).message}`);
      }
      if (!token) throw new BotSignInError('Entra gave the bot no token for the Bot Connector');
      return token.token;
    },
    getAgenticApplicationToken: unsupported('agentic identities'),
    getAgenticInstanceToken: unsupported('agentic identities'),
    getAgenticUserToken: unsupported('agentic identities'),
    acquireTokenOnBehalfOf: unsupported('on-behalf-of sign-in') as AuthProvider['acquireTokenOnBehalfOf'],
  };
}
