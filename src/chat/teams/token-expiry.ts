/**
 * botframework-connector verifies a channel token's signature, issuer, audience and, when the
 * token has one, its expiry; jsonwebtoken accepts a token without `exp` as valid forever. A Bot
 * Framework token always carries one, so a signed token without it (a leaked signing key's mint,
 * or a token crafted for another purpose) is refused here, before the adapter sees it.
 */
export class TokenWithoutExpiryError extends Error {
  override readonly name = 'AuthenticationError';
}

/** Throws unless the bearer token's payload holds a finite numeric `exp` (seconds since the epoch). */
export function assertTokenExpires(authHeader: string): void {
  const token = /^Bearer\s+(\S+)$/i.exec(authHeader.trim())?.[1];
  // No token or not a JWT: the adapter's own check refuses it with its own reason.
  const payload = token?.split('.')[1];
  if (!token || token.split('.').length !== 3 || !payload) return;
  let exp: unknown;
  try {
    exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown } | null)?.exp;
  } catch {
    return; // unreadable payload: the adapter refuses it as a malformed token
  }
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new TokenWithoutExpiryError('token has no expiry (exp)');
}
