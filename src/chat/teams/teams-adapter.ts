import {
  CloudAdapter,
  ConfigurationBotFrameworkAuthentication,
  type Activity,
  type ConfigurationBotFrameworkAuthenticationOptions,
  type InvokeResponse,
  type TurnContext,
} from 'botbuilder';
import type { Logger } from 'pino';
import type { TeamsSettings } from './teams-settings.js';
import { assertTokenExpires } from './token-expiry.js';

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
 * CloudAdapter, taking activities burnrate's own HTTP server has already read. CloudAdapter's
 * `process` wants Express-like objects and answers a forged signature with 500 (jsonwebtoken's
 * error is not botbuilder's AuthenticationError); going one level down lets the route answer
 * every authentication failure with 401.
 */
export class TeamsAdapter extends CloudAdapter {
  constructor(
    auth: ConfigurationBotFrameworkAuthentication,
    /** With an app id set: a token must carry an expiry, which botbuilder leaves optional. */
    private readonly authenticated: boolean,
  ) {
    super(auth);
  }

  /** Authenticates the request (throws when it fails), runs the turn, returns an invoke's answer. */
  async run(authHeader: string, activity: Activity, logic: (context: TurnContext) => Promise<void>): Promise<InvokeResponse | undefined> {
    if (this.authenticated) assertTokenExpires(authHeader);
    return this.processActivity(authHeader, activity, logic);
  }
}

/**
 * botbuilder's CloudAdapter with burnrate's credentials. Without an app id (insecure dev only) it
 * authenticates nothing, which botbuilder does by itself for an empty MicrosoftAppId.
 */
export function createTeamsAdapter(settings: TeamsSettings, log: Logger, endpoints?: TeamsAuthEndpoints): TeamsAdapter {
  const options: ConfigurationBotFrameworkAuthenticationOptions = settings.insecure
    ? {}
    : {
        MicrosoftAppId: settings.appId,
        MicrosoftAppType: settings.appType,
        ...(settings.password ? { MicrosoftAppPassword: settings.password } : {}),
        ...(settings.tenantId ? { MicrosoftAppTenantId: settings.tenantId } : {}),
        ...(endpoints ?? {}),
      };
  const adapter = new TeamsAdapter(new ConfigurationBotFrameworkAuthentication(options), !settings.insecure);
  // The dispatcher answers users itself; what reaches here is a bug in the glue or a connector
  // failure while answering. It is logged (without the activity, which may hold user text) and
  // the request fails, so the connector's own retry policy applies.
  adapter.onTurnError = async (context, error) => {
    // A proactive turn's failure is the outbox's to report and retry.
    if (context.activity.name !== 'ContinueConversation')
      log.error({ err: error.message, type: context.activity.type, name: context.activity.name }, 'teams turn failed');
    throw error;
  };
  return adapter;
}
