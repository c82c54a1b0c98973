import { vi } from 'vitest';

/** Points the AWS SDK at a local fake with fixed keys, and keeps a developer's ~/.aws and any instance metadata out. */
export function stubAwsEnv(endpoint: string): void {
  vi.stubEnv('AWS_ENDPOINT_URL', endpoint);
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDBURNRATETEST');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'fake-secret-key');
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
  vi.stubEnv('AWS_REGION', 'eu-west-1');
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
  vi.stubEnv('AWS_CONFIG_FILE', '/nonexistent/burnrate-test-aws-config');
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', '/nonexistent/burnrate-test-aws-credentials');
  vi.stubEnv('AWS_PROFILE', undefined);
}
