import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

/**
 * An OAuth 2.1 authorization server's public face on 127.0.0.1, as a resource server sees it: its
 * metadata (RFC 8414) naming its JWKS, and the JWKS with one ES256 key; it signs access tokens as
 * it would issue them. Counts the JWKS reads (a resource server should cache them).
 */
export interface FakeIssuer {
  issuer: string;
  jwksReads(): number;
  /** An access token with these claims, signed by the issuer's key (or by a key it never published). */
  sign(claims: JWTPayload, options?: { foreignKey?: boolean }): Promise<string>;
  close(): Promise<void>;
}

export async function startFakeIssuer(): Promise<FakeIssuer> {
  const [published, foreign] = await Promise.all([generateKeyPair('ES256'), generateKeyPair('ES256')]);
  const jwk = { ...(await exportJWK(published.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  let reads = 0;
  let issuer = '';
  const server: Server = createServer((req, res) => {
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/oauth-authorization-server')
      return send({ issuer, jwks_uri: `${issuer}/jwks`, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token` });
    if (req.url === '/jwks') {
      reads += 1;
      return send({ keys: [jwk] });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksReads: () => reads,
    sign: (claims, options = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .sign(options.foreignKey ? foreign.privateKey : published.privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
