import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './http-body.js';

/**
 * The Bot Framework's token issuer on 127.0.0.1: an OpenID metadata document whose `jwks_uri`
 * lists one RSA signing key, the same keys where the Agents SDK looks for an issuer's keys under
 * its configured authority (`/{tenant}/discovery/v2.0/keys`), and a signer for channel tokens.
 * The SDK's JWT middleware fetches the keys from here when the bot's authority points here, then
 * verifies the test's tokens exactly as it verifies the connector's.
 */
export class FakeBotIdentity {
  /** The `iss` of the tokens; the bot must be told to expect it (ToBotFromChannelTokenIssuer). */
  readonly issuer = 'https://api.botframework.test';
  readonly keyId = randomUUID();
  private readonly keys = generateKeyPairSync('rsa', { modulusLength: 2048 });

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakeBotIdentity> {
    let identity: FakeBotIdentity | undefined;
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const keys = path === '/v1/keys' || /^\/[^/]+\/discovery\/v2\.0\/keys$/.test(path ?? '');
      const body = path === '/v1/.well-known/openidconfiguration' ? identity!.metadata() : keys ? identity!.jwks() : null;
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? { error: 'not found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    identity = new FakeBotIdentity(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return identity;
  }

  get metadataUrl(): string {
    return `${this.origin}/v1/.well-known/openidconfiguration`;
  }

  /**
   * A channel token as the connector sends it in `Authorization: Bearer`. `key` signs with
   * another private key under the same key id (a forgery); `expiresIn` below zero is expired, null
   * leaves `exp` out (a token that never expires).
   */
  token(claims: { aud: string; serviceUrl: string; iss?: string; expiresIn?: number | null }, key?: KeyObject): string {
    const now = Math.floor(Date.now() / 1000);
    const expiresIn = claims.expiresIn ?? 3600;
    const header = { alg: 'RS256', typ: 'JWT', kid: this.keyId };
    const payload = {
      iss: claims.iss ?? this.issuer,
      aud: claims.aud,
      serviceurl: claims.serviceUrl,
      nbf: now - 60 + Math.min(0, expiresIn),
      iat: now - 60 + Math.min(0, expiresIn),
      ...(claims.expiresIn === null ? {} : { exp: now + expiresIn }),
    };
    const signed = `${b64(header)}.${b64(payload)}`;
    const signature = createSign('RSA-SHA256')
      .update(signed)
      .sign(key ?? this.keys.privateKey)
      .toString('base64url');
    return `${signed}.${signature}`;
  }

  /** A private key the issuer never published. */
  static strangerKey(): KeyObject {
    return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  }

  async close(): Promise<void> {
    await closeServer(this.server);
  }

  private metadata() {
    return {
      issuer: this.issuer,
      jwks_uri: `${this.origin}/v1/keys`,
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
    };
  }

  private jwks() {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return { keys: [{ kty: 'RSA', use: 'sig', kid: this.keyId, n: jwk.n, e: jwk.e, endorsements: ['msteams'] }] };
  }
}

function b64(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
