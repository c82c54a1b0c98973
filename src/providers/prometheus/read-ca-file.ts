import { readFileSync } from 'node:fs';
import { BurnrateError } from '../../domain/errors.js';

/** The PEM of a Prometheus source's caFile, read when the source is built so a wrong path stops the start. */
export function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new BurnrateError(
      'burnrate_prometheus_ca_unreadable',
      `The Prometheus CA file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}).`,
      'Check the caFile path and that burnrate may read it (in Kubernetes: the ConfigMap or Secret is mounted there).',
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new BurnrateError(
      'burnrate_prometheus_ca_unreadable',
      `The Prometheus CA file ${path} holds no PEM certificate.`,
      'Give a file of one or more certificates beginning -----BEGIN CERTIFICATE-----.',
    );
  return pem;
}
