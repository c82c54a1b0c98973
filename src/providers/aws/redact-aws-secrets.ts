/**
 * AWS error text sometimes quotes the request's credentials: "The security token included in the
 * request is invalid" is harmless, but SignatureDoesNotMatch, presigned-URL and proxy errors can
 * quote the access key id, the SigV4 `Credential=<key id>/<date>/<region>/<service>/aws4_request`
 * scope, the `Signature=` and the session token. Those texts reach team channels, logs and the
 * database, so every AWS error translation passes the SDK's message through here first. The
 * secret key itself never appears in a request, so it cannot be quoted.
 */
const REDACTED = '[redacted]';

/** Access key ids: AKIA (long-term), ASIA (temporary), ABIA and ACCA (service-specific); 20 characters. */
const ACCESS_KEY_ID = /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g;
/** `Credential=` (header or `X-Amz-Credential=` query), up to the next separator: key id and scope. */
const CREDENTIAL = /(Credential=)[^,\s&"']+/gi;
/** `Signature=` / `X-Amz-Signature=`, and a session token in a query or header. */
const SIGNATURE = /((?:X-Amz-)?Signature=)[^,\s&"']+/gi;
const SECURITY_TOKEN = /((?:X-Amz-Security-Token|x-amz-security-token)[=:]\s*)[^,\s&"']+/g;

/** The text with access key ids, credential scopes, signatures and session tokens replaced by "[redacted]". */
export function redactAwsSecrets(text: string): string {
  return text
    .replace(CREDENTIAL, `$1${REDACTED}`)
    .replace(SIGNATURE, `$1${REDACTED}`)
    .replace(SECURITY_TOKEN, `$1${REDACTED}`)
    .replace(ACCESS_KEY_ID, REDACTED);
}
