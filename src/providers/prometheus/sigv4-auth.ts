import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { SignatureV4 } from '@smithy/signature-v4';
import { BurnrateError } from '../../domain/errors.js';
import type { PrometheusAuth } from './prometheus-auth.js';

type SignerInit = ConstructorParameters<typeof SignatureV4>[0];
/** What the signer hashes: text or bytes. */
type SourceData = string | ArrayBuffer | ArrayBufferView;

export interface Sigv4Options {
  region: string;
  /** Default: the SDK's default chain (environment, profile, SSO, web identity as IRSA sets it, instance or task role). */
  credentials?: SignerInit['credentials'] | undefined;
}

/**
 * Amazon Managed Service for Prometheus: every request signed with AWS Signature V4 for the
 * service `aps` in the workspace's region. The credentials come from the default chain, which
 * refreshes them before they expire.
 */
export function sigv4Auth(options: Sigv4Options): PrometheusAuth {
  const signer = new SignatureV4({
    service: 'aps',
    region: options.region,
    credentials: options.credentials ?? fromNodeProviderChain(),
    sha256: NodeSha256,
  });
  return {
    async headers(url) {
      // A form-encoded space (+) is a literal plus to a SigV4 server, which re-derives the canonical
      // query from what it receives: send spaces as %20 (Prometheus' own sigv4 client does the same).
      url.search = url.search.replaceAll('+', '%20');
      let signed;
      try {
        signed = await signer.sign({
          method: 'GET',
          protocol: url.protocol,
          hostname: url.hostname,
          ...(url.port ? { port: Number(url.port) } : {}),
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          // fetch sends Host itself, spelt as url.host; the signature must cover that same value.
          headers: { host: url.host },
        });
      } catch (error) {
        throw new BurnrateError(
          'burnrate_prometheus_aws_credentials_missing',
          `No AWS credentials to sign requests to the Prometheus workspace in ${options.region} (${error instanceof Error ? error.message : String(error)}).`,
          'Give burnrate AWS credentials as for the AWS provider (environment, profile, IRSA or an instance role) allowed aps:QueryMetrics on the workspace.',
          1,
        );
      }
      const { host: _host, ...headers } = signed.headers;
      return headers;
    },
    refusedHint: `Check that burnrate's AWS credentials may call aps:QueryMetrics on this workspace, and that sigv4.region (${options.region}) is the workspace's region.`,
  };
}

/** SHA-256 and HMAC-SHA-256 from node:crypto, in the shape the signer takes. */
class NodeSha256 {
  readonly #secret: SourceData | undefined;
  #hash: Hash | Hmac;

  constructor(secret?: SourceData) {
    this.#secret = secret;
    this.#hash = NodeSha256.start(secret);
  }

  update(data: SourceData): void {
    this.#hash.update(bytes(data));
  }

  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }

  reset(): void {
    this.#hash = NodeSha256.start(this.#secret);
  }

  private static start(secret: SourceData | undefined): Hash | Hmac {
    return secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
}

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}
