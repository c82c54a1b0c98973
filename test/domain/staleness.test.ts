import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { describeStale, staleSources } from '../../src/domain/staleness.js';

const config = configSchema.parse({
  sources: [{ type: 'aws' }, { type: 'gcp', id: 'gcp-eu', project: 'acme-billing', table: 'acme-billing.b.t', location: 'EU' }],
});
const NOW = new Date('2026-11-22T11:30:00Z');

describe('stale sources', () => {
  it('names each failing source as a user would, with the hours since its last good refresh', () => {
    const stale = staleSources(
      config,
      [
        { source: 'aws', dataThrough: '2026-11-21T00:00:00Z', refreshedAt: '2026-11-21T09:00:00Z' },
        { source: 'gcp-eu', dataThrough: '2026-11-22T00:00:00Z', refreshedAt: '2026-11-22T09:00:00Z' },
      ],
      [
        { source: 'aws', failedAt: '2026-11-22T11:00:00Z', error: 'denied' },
        { source: 'gcp-eu:budgets', failedAt: '2026-11-22T11:00:00Z', error: 'denied' },
        { source: 'old-focus', failedAt: '2026-11-01T00:00:00Z', error: 'gone from burnrate.yml' },
      ],
      NOW,
    );
    expect(stale.map((s) => [s.source, s.label, s.kind, s.ageHours, describeStale(s)])).toEqual([
      ['gcp-eu:budgets', 'Google Cloud (gcp-eu) budgets', 'budgets', null, 'Google Cloud (gcp-eu) budgets data not loaded yet'],
      ['aws', 'AWS', 'spend', 26, 'AWS data 26 h old'],
    ]);
  });
});
