import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { externalAccountCredentialAt } from '../../../fakes/fake-google-cloud.js';

/**
 * Application Default Credentials as on a cluster with workload identity federation: an
 * external_account credential whose token exchange is the fake's, and every Google client sent to
 * the fake (BURNRATE_GCP_ENDPOINT). Undo with vi.unstubAllEnvs().
 */
export function useGoogleWorkloadIdentity(endpoint: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-gce-'));
  writeFileSync(join(dir, 'subject-token'), 'projected-service-account-token');
  writeFileSync(join(dir, 'credentials.json'), JSON.stringify(externalAccountCredentialAt(endpoint, join(dir, 'subject-token'))));
  vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', join(dir, 'credentials.json'));
  vi.stubEnv('METADATA_SERVER_DETECTION', 'none');
  vi.stubEnv('BURNRATE_GCP_ENDPOINT', endpoint);
}
