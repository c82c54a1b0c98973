/**
 * AWS error text that quotes the request's credentials (the access key id, the SigV4
 * `Credential=` scope, the signature, a session token) never reaches a message, the log or the
 * database: every AWS error translation redacts it. The Cost Explorer case runs the real SDK
 * against a fake that answers with the request's own Authorization header in the message.
 */
import { describe, expect, it, vi } from 'vitest';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import { buildSources } from '../../../src/providers/registry.js';
import { explainEc2Error } from '../../../src/providers/aws/ec2/ec2-errors.js';
import { explainCloudWatchError } from '../../../src/providers/aws/cloudwatch/cloudwatch-errors.js';
import { explainAwsError } from '../../../src/providers/aws/aws-errors.js';
import { queryFailedError } from '../../../src/providers/aws/athena/athena-errors.js';
import { FakeAwsBilling } from '../../fakes/fake-aws-billing.js';
import { testDeps } from '../../support/deps.js';
import { fakeLifecycle } from '../../support/fake-lifecycle.js';
import { stubAwsEnv } from '../../support/aws-test-env.js';

// AWS's documented example key id and a session token's shape: what must never be quoted.
const KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const TEMP_KEY_ID = 'ASIAY34FZKBOKMUTVV7A';
const SESSION_TOKEN = 'IQoJb3JpZ2luX2VjEXAMPLEtokenAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Anything of a credential left in a text. */
function leaks(text: string): string[] {
  const found = [
    ...text.matchAll(/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g),
    ...text.matchAll(/Credential=(?!\[redacted\])\S+/g),
    ...text.matchAll(/Signature=(?!\[redacted\])\S+/g),
    ...text.matchAll(/Security-Token=(?!\[redacted\])\S+/gi),
  ].map((m) => m[0]);
  if (text.includes(SESSION_TOKEN)) found.push(SESSION_TOKEN);
  return found;
}

const fakes = fakeLifecycle<FakeAwsBilling>();

describe('AWS error text is redacted before it leaves the provider', () => {
  it('Cost Explorer answering with the request signature: the refresh result and the stored failure name no key id, scope or signature', async () => {
    const fake = fakes.track(await FakeAwsBilling.start({ costs: [] }));
    stubAwsEnv(fake.endpoint);
    vi.stubEnv('AWS_ACCESS_KEY_ID', KEY_ID);
    const t = testDeps({ teams: [{ id: 'ml', budget: { monthly: 100 } }], sources: [{ type: 'aws' }] }, '2026-11-21T09:00:00Z');
    t.deps.sources = buildSources(t.deps.config, process.env).spend;
    fake.failNext('GetCostAndUsage', 'QuotesCredentials');

    const [result] = await refreshSources(t.deps);

    // The fake did quote the key id and the scope: the fault is real.
    expect(fake.callsOf('GetCostAndUsage')[0]!.accessKeyId).toBe(KEY_ID);
    expect(result!.ok).toBe(false);
    expect(result!.error).toContain('IncompleteSignatureException');
    expect(result!.error).toContain('Credential=[redacted]');
    expect(leaks(result!.error!)).toEqual([]);
    const stored = await t.deps.store.freshness.failures();
    expect(stored).toHaveLength(1);
    expect(leaks(stored[0]!.error)).toEqual([]);
  });

  const quoted =
    `The request signature we calculated does not match. Authorization=AWS4-HMAC-SHA256 Credential=${TEMP_KEY_ID}/20261121/us-east-1/ec2/aws4_request, ` +
    `SignedHeaders=host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7 ` +
    `https://bucket.s3.amazonaws.com/x?X-Amz-Credential=${KEY_ID}%2F20261121%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Security-Token=${SESSION_TOKEN}&X-Amz-Signature=abc123 ` +
    `key ${KEY_ID}`;
  const sdkError = (name: string) => Object.assign(new Error(quoted), { name, $metadata: { httpStatusCode: 400 } });

  it.each([
    [
      'Cost Explorer, Budgets, Athena calls',
      () =>
        explainAwsError(sdkError('IncompleteSignatureException'), {
          service: 'AWS Budgets',
          permission: 'budgets:ViewBudget',
          account: 'default credentials',
        }),
    ],
    [
      'the same, denied',
      () =>
        explainAwsError(sdkError('AccessDeniedException'), {
          service: 'Cost Explorer',
          permission: 'ce:GetCostAndUsage',
          account: 'default credentials',
        }),
    ],
    ['EC2 (stop, spot, inventory)', () => explainEc2Error(sdkError('InvalidParameterValue'), 'ec2:StopInstances', 'us-east-1')],
    ['EC2, cannot stop', () => explainEc2Error(sdkError('IncorrectInstanceState'), 'ec2:StopInstances', 'us-east-1')],
    ['CloudWatch', () => explainCloudWatchError(sdkError('AccessDeniedException'), 'cloudwatch:GetMetricData', 'us-east-1')],
    ['CloudWatch, other', () => explainCloudWatchError(sdkError('InvalidParameterCombination'), 'cloudwatch:GetMetricData', 'us-east-1')],
    [
      'an Athena query reason',
      () => queryFailedError('FAILED', quoted, 'q-1', { sourceId: 'athena', table: 'cur.cur', workgroup: 'primary' }),
    ],
  ])('%s', (_where, explain) => {
    const error = explain();
    expect(leaks(error.message)).toEqual([]);
    expect(leaks(error.hint ?? '')).toEqual([]);
    // What is not secret stays, so the message still says what went wrong.
    expect(error.message).toMatch(/signature we calculated does not match|denied/);
  });
});
