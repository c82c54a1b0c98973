import { CloudAdapter, ConfigurationBotFrameworkAuthentication, type ConfigurationBotFrameworkAuthenticationOptions } from 'botbuilder';
import type { Logger } from 'pino';
import type { TeamsSettings } from './teams-settings.js';

/**
 * Where the Bot Framework's identity documents and token service live. Public Azure unless given:
 * sovereign clouds, and tests that sign their own tokens against a local OpenID metadata endpoint.
 * Setting any of these switches botframework-connector to "parameterized" mode, where every one
 * of them must be given (see its BotFrameworkAuthenticationFactory).
 */
export interface TeamsAuthEndpoints {
  /** OpenID metadata of the channel's token issuer; its `jwks_uri` lists the signing keys. */
  ToBotFromChannelOpenIdMetadataUrl: string;
  /** The `iss` claim a channel token must carry (https://api.botframework.com in public Azure). */
  ToBotFromChannelTokenIssuer: string;
  ToBotFromEmulatorOpenIdMetadataUrl: string;
  /** Where the bot gets its own tokens to call the connector. */
  ToChannelFromBotLoginUrl: string;
  ToChannelFromBotOAuthScope: string;
  OAuthUrl: string;
  CallerId: string;
  ValidateAuthority: boolean;
}

/**
 * botbuilder's CloudAdapter with burnrate's credentials. Without an app id (insecure dev only) it
 * authenticates nothing, which botbuilder does by itself for an empty MicrosoftAppId.
 */
export function createTeamsAdapter(settings: TeamsSettings, log: Logger, endpoints?: TeamsAuthEndpoints): CloudAdapter {
  const options: ConfigurationBotFrameworkAuthenticationOptions = settings.insecure
    ? {}
    : {
        MicrosoftAppId: settings.appId,
        MicrosoftAppType: settings.appType,
        ...(settings.password ? { MicrosoftAppPassword: settings.password } : {}),
        ...(settings.tenantId ? { MicrosoftAppTenantId: settings.tenantId } : {}),
        ...(endpoints ?? {}),
      };
  const adapter = new CloudAdapter(new ConfigurationBotFrameworkAuthentication(options));
  // The dispatcher answers users itself; what reaches here is a bug in the glue or a connector
  // failure while answering. It is logged (without the activity, which may hold user text) and
  // the request fails, so the connector's own retry policy applies.
  adapter.onTurnError = async (context, error) => {
    // A proactive turn's failure is the outbox's to report and retry.
    if (context.activity.name !== 'ContinueConversation') log.error({ err: error.message, type: context.activity.type, name: context.activity.name }, 'teams turn failed');
    throw error;
  };
  return adapter;
}
