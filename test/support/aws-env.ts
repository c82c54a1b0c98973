import { vi } from 'vitest';

/** Fake credentials the AWS fakes accept (they check the SigV4 scope, not the signature). */
export const TEST_AWS_CREDENTIALS = { accessKeyId: 'AKIDBURNRATETEST', secretAccessKey: 'fake-secret-key' };

/**
 * Keeps the AWS SDK inside the test: no instance metadata lookups, and a developer's ~/.aws
 * (profiles, credentials) out of it. Call in beforeEach; vi.unstubAllEnvs() undoes it.
 */
export function isolateAwsEnv(): void {
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
  vi.stubEnv('AWS_CONFIG_FILE', '/nonexistent/burnrate-test-aws-config');
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', '/nonexistent/burnrate-test-aws-credentials');
  vi.stubEnv('AWS_PROFILE', undefined);
}
