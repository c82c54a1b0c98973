import { vi } from 'vitest';
import type { Deps } from '../../../src/deps.js';
import { buildSources } from '../../../src/providers/registry.js';
import { fakeGoogleAuth, type FakeGoogleCloud } from '../../fakes/fake-google-cloud.js';

/** Builds deps' sources from their config, with every Google client pointed at the fake and its token. */
export function useGoogleFake(deps: Deps, fake: FakeGoogleCloud, token?: string): void {
  vi.stubEnv('METADATA_SERVER_DETECTION', 'none');
  vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', '/nonexistent/burnrate-test-google-credentials.json');
  const built = buildSources(deps.config, { BURNRATE_GCP_ENDPOINT: fake.endpoint }, { googleAuth: fakeGoogleAuth(token) });
  deps.sources = built.spend;
  deps.budgetSources = built.budgets;
}

/** A gcp source entry for burnrate.yml, with retries fast enough for tests. */
export const GCP_TABLE = 'acme-billing.billing_export.gcp_billing_export_v1_012345_6789AB_CDEF01';
