import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { UNTAGGED } from '../../src/domain/spend.js';
import { attributeSeries } from '../../src/snapshots/gpu-attribution.js';
import { namespaceTeamsOf } from '../../src/domain/kubernetes.js';
import { g5Instance, seriesOf } from '../support/g5-instance.js';

const instance = g5Instance;
const series = seriesOf;

const teams = configSchema.parse({
  teams: [
    { id: 'llm', gpu: { namespaces: ['ray-llm'] } },
    { id: 'vision', gpu: { namespaces: ['cv-train'] } },
  ],
}).teams;

const A = instance('i-0a00000000000000a', 'vision', ['ip-10-0-1-17.ec2.internal', '10.0.1.17']);
const B = instance('i-0b00000000000000b', UNTAGGED, ['ip-10-0-2-5.ec2.internal', '10.0.2.5']);
const C = instance('i-0c00000000000000c', UNTAGGED, ['ip-10-0-3-9.ec2.internal', '10.0.3.9']);
// Same private address in two VPCs: it names neither instance.
const D = instance('i-0d00000000000000d', 'vision', ['10.9.9.9']);
const E = instance('i-0e00000000000000e', 'vision', ['10.9.9.9']);

describe('tying GPU series to inventory instances', () => {
  it('matches by instance id, private DNS name, its first label, or private IP with a port; unknown and ambiguous hosts are left out', () => {
    const matched = attributeSeries(
      [A, B, C, D, E],
      [
        series({ host: 'i-0a00000000000000a', gpu: '0' }),
        series({ host: 'IP-10-0-1-17.ec2.internal', gpu: '1' }),
        series({ host: 'ip-10-0-2-5', gpu: '0' }),
        series({ host: '10.0.3.9:9400', gpu: '0' }),
        series({ host: 'ip-10-0-99-1', gpu: '0' }),
        series({ host: '10.9.9.9', gpu: '0' }),
      ],
      new Map(),
    );
    expect(matched.map((m) => `${m.series.ref.host}/${m.series.ref.gpu} → ${m.instance.instanceId}`)).toEqual([
      'i-0a00000000000000a/0 → i-0a00000000000000a',
      'IP-10-0-1-17.ec2.internal/1 → i-0a00000000000000a',
      'ip-10-0-2-5/0 → i-0b00000000000000b',
      '10.0.3.9:9400/0 → i-0c00000000000000c',
    ]);
  });

  it("gives an untagged instance the team owning its pods' namespace, the lowest GPU's first; a tagged one keeps its tag's team", () => {
    const namespaces = namespaceTeamsOf(teams);
    expect([...namespaces]).toEqual([
      ['ray-llm', 'llm'],
      ['cv-train', 'vision'],
    ]);
    const matched = attributeSeries(
      [A, B, C],
      [
        series({ host: 'ip-10-0-1-17', gpu: '0', namespace: 'ray-llm', pod: 'ray-0' }),
        series({ host: 'ip-10-0-2-5', gpu: '1', namespace: 'cv-train' }),
        series({ host: 'ip-10-0-2-5', gpu: '0', namespace: 'ray-llm' }),
        series({ host: 'ip-10-0-2-5', gpu: '2' }),
        series({ host: 'ip-10-0-3-9', gpu: '0', namespace: 'kube-system' }),
      ],
      namespaces,
    );
    expect(matched.map((m) => `${m.instance.instanceId}/${m.series.ref.gpu} ${m.instance.team}`)).toEqual([
      'i-0a00000000000000a/0 vision',
      'i-0b00000000000000b/1 llm',
      'i-0b00000000000000b/0 llm',
      'i-0b00000000000000b/2 llm',
      `i-0c00000000000000c/0 ${UNTAGGED}`,
    ]);
    // The inventory itself is not changed.
    expect(B.team).toBe(UNTAGGED);
  });
});
