import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../support/config.js';
import { errorOf } from '../support/error-of.js';

const withMetrics = (source: string) => `
teams:
  - { id: llm }
sources: []
gpu:
  metrics: [${source}]
  inventory: [{ type: ec2, regions: [us-east-1] }]
`;

describe('how burnrate authenticates to a Prometheus source', () => {
  it('reads a token file and SigV4 for Amazon Managed Service for Prometheus', () => {
    const fromFile = parseConfigText(
      withMetrics('{ type: prometheus, url: "https://thanos:10902", bearerTokenFile: /var/run/secrets/tokens/prometheus }'),
    );
    expect(fromFile.gpu.metrics[0]).toMatchObject({ bearerTokenFile: '/var/run/secrets/tokens/prometheus' });
    const signed = parseConfigText(
      withMetrics(
        '{ type: prometheus, url: "https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-1", sigv4: { region: eu-west-1 } }',
      ),
    );
    expect(signed.gpu.metrics[0]).toMatchObject({ sigv4: { region: 'eu-west-1' } });
  });

  it.each([
    [
      'two ways at once',
      '{ type: prometheus, url: "http://p:9090", bearerTokenEnv: TOKEN, sigv4: { region: eu-west-1 } }',
      'expected one way to authenticate',
    ],
    [
      'a region AWS does not have',
      '{ type: prometheus, url: "http://p:9090", sigv4: { region: eu-middle-9 } }',
      'gpu.metrics[0].sigv4.region: expected an AWS region',
    ],
    [
      'ca and caFile together',
      '{ type: prometheus, url: "https://p:9090", caFile: /ca.pem, ca: "-----BEGIN CERTIFICATE-----" }',
      'expected ca or caFile, not both',
    ],
    [
      'a CA for plain http',
      '{ type: prometheus, url: "http://p:9090", caFile: /etc/ssl/private-ca.pem }',
      'expected an https url with ca or caFile',
    ],
  ])('refuses %s', (_what, source, message) => {
    expect(errorOf(() => parseConfigText(withMetrics(source))).message).toContain(message);
  });
});
