import type { TokenCredential } from '@azure/identity';
import { CloudAdapter, type AuthConfiguration, type Request, type TurnContext, type WebResponse } from '@microsoft/agents-hosting';
import type { Logger } from 'pino';
import { BOT_FRAMEWORK_TENANT, botCredential, type EntraOptions } from './bot-credential.js';
import { credentialConnections } from './connector-auth.js';
import type { TeamsSettings } from './teams-settings.js';
import { assertServiceUrlClaim, assertTokenExpires, ChannelTokenError } from './channel-token.js';

/**
 * Where the tokens come from, for tests and sovereign clouds: the Entra authority whose
 * `/{tenant}/discovery/v2.0/keys` sign tokens from an issuer other than the Bot Framework's own
 * (whose keys the SDK reads from login.botframework.com), the issuers accepted besides the
 * Microsoft ones, and how the bot's own credential reaches Entra.
 */
export interface TeamsAuthEndpoints {
  authority?: string;
  issuers?: string[];
  entra?: EntraOptions;
  /** A credential to use instead of the one the settings describe (a test's). */
  credential?: TokenCredential;
}

/** What the HTTP route answers after a turn: the invoke response's status and body, or 200. */
export interface TurnAnswer {
  status: number;
  body: unknown;
}

/** The one connection of the bot, as the SDK's JWT middleware matches a token's audience to it. */
const CONNECTION = 'ServiceConnection';

/**
 * The Agents SDK's CloudAdapter, taking activities burnrate's own HTTP server has already read.
 * The SDK authenticates the request (signature against the issuer's published keys, audience,
 * issuer, not before, expiry) in its JWT middleware; this adds what the Bot Framework's tokens
 * always carry and the SDK leaves optional: an expiry, and a `serviceurl` claim naming the
 * activity's service URL exactly. Any failure is answered 401 before a turn runs.
 */
export class TeamsAdapter extends CloudAdapter {
  constructor(
    auth: AuthConfiguration,
    credential: TokenCredential | null,
    private readonly authenticated: boolean,
  ) {
    // validateServiceUrl: the SDK's own host check, behind ours (which compares the whole URL).
    super(auth, undefined, undefined, { validateServiceUrl: authenticated });
    if (credential) this.connectionManager = credentialConnections(credential, this.authConfig);
  }

  /** Authenticates the request (throws ChannelTokenError when it fails), runs the turn, returns what to answer. */
  async run(authorization: string, activity: Record<string, unknown>, logic: (context: TurnContext) => Promise<void>): Promise<TurnAnswer> {
    const request: Request = { method: 'POST', headers: { authorization }, body: activity };
    if (this.authenticated) {
      const refusal = new RecordedResponse();
      let passed = false;
      await this.authorizeRequest(request, refusal, () => {
        passed = true;
      });
      if (!passed) throw new ChannelTokenError(refusal.reason());
      assertTokenExpires(authorization);
      assertServiceUrlClaim(request.user, activity.serviceUrl);
    }
    const answer = new RecordedResponse();
    await this.process(request, answer, logic);
    return { status: answer.statusCode, body: answer.body ?? {} };
  }
}

/**
 * The SDK's CloudAdapter with burnrate's credentials. Without an app id (insecure dev only) it
 * authenticates nothing and calls the connector without a token, which the SDK does by itself
 * for a request without identity.
 */
export function createTeamsAdapter(settings: TeamsSettings, log: Logger, endpoints: TeamsAuthEndpoints = {}): TeamsAdapter {
  let adapter: TeamsAdapter;
  if (settings.insecure) {
    adapter = new TeamsAdapter(oneConnection({}), null, false);
  } else {
    const connection: AuthConfiguration = {
      clientId: settings.appId,
      ...(settings.tenantId ? { tenantId: settings.tenantId } : {}),
      ...(endpoints.authority ? { authorityEndpoint: endpoints.authority } : {}),
      ...(endpoints.issuers ? { issuers: endpoints.issuers } : {}),
      validateIssuer: true,
    };
    const tenant = settings.appType === 'MultiTenant' ? BOT_FRAMEWORK_TENANT : (settings.tenantId ?? BOT_FRAMEWORK_TENANT);
    const credential = endpoints.credential ?? botCredential(settings.appId, tenant, settings.credential, endpoints.entra);
    adapter = new TeamsAdapter(oneConnection(connection), credential, true);
  }
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

/**
 * The SDK's configuration with this one connection for every service URL: given explicitly, so
 * connection settings in the environment under the SDK's own names cannot add a second one.
 */
function oneConnection(connection: AuthConfiguration): AuthConfiguration {
  return { ...connection, connections: new Map([[CONNECTION, connection]]), connectionsMap: [{ serviceUrl: '*', connection: CONNECTION }] };
}

/** The SDK writes its answers Express-style; this keeps them for burnrate's own server to send. */
class RecordedResponse implements WebResponse {
  statusCode = 200;
  body: unknown;
  headersSent = false;
  writableEnded = false;

  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  setHeader(): this {
    return this;
  }
  send(body?: unknown): this {
    this.body = body;
    return this;
  }
  end(): this {
    this.writableEnded = true;
    return this;
  }
  /** The SDK's reason for a refusal, for the log (it names the check, never the token). */
  reason(): string {
    const said = (this.body as { 'jwt-auth-error'?: unknown } | undefined)?.['jwt-auth-error'];
    return typeof said === 'string' ? said : `HTTP ${this.statusCode}`;
  }
}
