import { afterEach, beforeEach, expect, vi } from 'vitest';
import { BurnrateError } from '../../src/domain/errors.js';

/** Fake credentials for SDK clients aimed at a local fake: signed like real ones, never valid anywhere. */
export const TEST_AWS_CREDENTIALS = { accessKeyId: 'AKIDBURNRATETEST', secretAccessKey: 'fake-secret-key' };

/** Keeps a developer's ~/.aws and the instance metadata service out of a test (call in beforeEach; vi.unstubAllEnvs after). */
export function isolateAwsEnv(): void {
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
  vi.stubEnv('AWS_CONFIG_FILE', '/nonexistent/burnrate-test-aws-config');
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', '/nonexistent/burnrate-test-aws-credentials');
  vi.stubEnv('AWS_PROFILE', undefined);
}

/** Points the AWS SDK's EC2 client at a local fake, as an operator points burnrate at an endpoint (the SDK's own settings). */
export function useEc2Endpoint(endpoint: string): void {
  vi.stubEnv('AWS_ENDPOINT_URL_EC2', endpoint);
  useTestCredentials();
}

/** Points the AWS SDK's SageMaker client at a local fake, as EC2's above. */
export function useSageMakerEndpoint(endpoint: string): void {
  vi.stubEnv('AWS_ENDPOINT_URL_SAGEMAKER', endpoint);
  useTestCredentials();
}

/**
 * Points every AWS SDK client (Cost Explorer, Budgets, STS, Athena) at one local fake with the
 * test keys in eu-west-1, and keeps a developer's ~/.aws and any instance metadata out.
 */
export function stubAwsEnv(endpoint: string): void {
  isolateAwsEnv();
  vi.stubEnv('AWS_ENDPOINT_URL', endpoint);
  vi.stubEnv('AWS_REGION', 'eu-west-1');
  useTestCredentials();
}

/** The test keys, and no session token a developer's shell may hold. */
function useTestCredentials(): void {
  vi.stubEnv('AWS_ACCESS_KEY_ID', TEST_AWS_CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', TEST_AWS_CREDENTIALS.secretAccessKey);
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
}

/** What the local AWS fakes (EC2, CloudWatch, ...) have in common. */
interface AwsFake {
  assertNoUnexpectedCalls(): void;
  close(): Promise<void>;
}

/**
 * The lifecycle of tests that start one AWS fake each: the AWS environment isolated before each
 * test; after it, the environment restored and the fake the test put in `started` checked for
 * unexpected calls and closed (a test that closes it itself sets `started` back to undefined).
 */
export function oneAwsFakePerTest<T extends AwsFake>(): { started: T | undefined } {
  const slot: { started: T | undefined } = { started: undefined };
  beforeEach(isolateAwsEnv);
  afterEach(async () => {
    vi.unstubAllEnvs();
    const fake = slot.started;
    slot.started = undefined;
    fake?.assertNoUnexpectedCalls();
    await fake?.close();
  });
  return slot;
}

/** The BurnrateError a promise rejects with (fails the test when it resolves or throws anything else). */
export async function caughtBurnrateError(promise: Promise<unknown>): Promise<BurnrateError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BurnrateError);
  return error as BurnrateError;
}
