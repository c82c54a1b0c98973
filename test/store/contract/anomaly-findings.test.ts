import { expect, it } from 'vitest';
import { describeStores } from '../../support/stores.js';
import { SAMPLE_ANOMALY } from '../../support/anomaly-finding.js';

// Anomaly findings: written through recordRun as a check run writes them; the team's answer,
// recorded by a click between runs, is kept once and survives the runs that refresh the body.

const at = (minutes: number) => new Date(Date.parse('2026-11-10T09:00:00Z') + minutes * 60_000);
const answer = {
  verdict: 'expected' as const,
  by: 'U1',
  at: at(5).toISOString(),
  accepted: { dimension: 'team' as const, key: 'ml', delta: 4210 },
};

describeStores('findings: spend anomalies', (store) => {
  it('keeps the first answer, across the runs that refresh the anomaly, and after it resolves', async () => {
    await store().recordRun('anomalyFindings', { opened: [SAMPLE_ANOMALY], stillOpen: [], resolved: [] }, [], at(0));
    expect((await store().anomalyFindings.listOpen()).map((f) => f.id)).toEqual([SAMPLE_ANOMALY.id]);

    expect(await store().anomalyFindings.answer(SAMPLE_ANOMALY.id, answer)).toEqual({ answer, first: true });
    const second = await store().anomalyFindings.answer(SAMPLE_ANOMALY.id, { ...answer, verdict: 'not-expected', by: 'U2' });
    expect(second).toEqual({ answer, first: false });
    expect(await store().anomalyFindings.answer('anomaly:ml:1999-01-01', answer)).toBeNull();

    // A later run refreshes the body (a higher excess) without an answer of its own.
    await store().recordRun('anomalyFindings', { opened: [], stillOpen: [{ ...SAMPLE_ANOMALY, excess: 5000 }], resolved: [] }, [], at(60));
    expect(await store().anomalyFindings.get(SAMPLE_ANOMALY.id)).toMatchObject({ excess: 5000, answer, state: 'open' });

    await store().recordRun('anomalyFindings', { opened: [], stillOpen: [], resolved: [SAMPLE_ANOMALY.id] }, [], at(120));
    expect(await store().anomalyFindings.listOpen()).toEqual([]);
    const seen = await store().anomalyFindings.seenSince(at(90));
    expect(seen.map((f) => [f.id, f.state, f.answer?.verdict])).toEqual([[SAMPLE_ANOMALY.id, 'resolved', 'expected']]);
    expect(await store().anomalyFindings.seenSince(at(121))).toEqual([]);
  });
});
