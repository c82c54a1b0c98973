import { expect, it } from 'vitest';
import type { ReviewFigures, ReviewLine } from '../../../src/domain/review.js';
import { withSecondReplica } from '../../support/second-replica.js';
import { describeStores } from '../../support/stores.js';

const at = (iso: string) => new Date(iso);
const record = {
  team: 'nlp',
  month: '2026-10',
  // The store keeps the figures as given.
  figures: { team: 'nlp', teamName: 'NLP', month: '2026-10' } as ReviewFigures,
  createdAt: at('2026-11-02T09:00:00Z'),
  closesAt: at('2026-11-30T09:00:00Z'),
};
const line = (key: string, cost: number): ReviewLine => ({
  key,
  label: key,
  resourceId: key,
  service: 'Amazon Elastic Compute Cloud',
  category: 'Compute',
  pricing: 'Standard',
  cost,
  instanceType: 'p4d.24xlarge',
  workload: null,
  spotSaving: null,
  recommendations: [],
});
const draft = (key: string) => ({ dedupeKey: key, target: 'slack:C1', message: { summary: key, blocks: [] } });

describeStores('reviews', (store) => {
  it('records a review once with its lines in rank order, and queues what is missing when opened again', async () => {
    const first = await store().reviews.open(
      record,
      [line('i-1', 900), line('i-2', 400)],
      (lines) => lines.map((l) => draft(`line:${l.rank}`)),
      at('2026-11-02T09:00:00Z'),
    );
    expect(first).toMatchObject({ created: true, queued: 2 });
    expect(first.lines.map((l) => [l.rank, l.key, l.cost, l.answer])).toEqual([
      [1, 'i-1', 900, null],
      [2, 'i-2', 400, null],
    ]);
    const again = await store().reviews.open(
      record,
      [line('i-9', 1)],
      (lines) => [...lines.map((l) => draft(`line:${l.rank}`)), draft('late')],
      at('2026-11-02T10:00:00Z'),
    );
    expect(again).toMatchObject({ created: false, queued: 1 });
    expect(again.lines.map((l) => l.key)).toEqual(['i-1', 'i-2']);
    expect(await store().reviews.get('nlp', '2026-10')).toMatchObject({ ...record, remindedAt: null, closedAt: null });
    expect(await store().reviews.get('nlp', '2026-09')).toBeNull();
    expect((await store().reviews.listOpen()).map((r) => r.team)).toEqual(['nlp']);
  });

  it('records answers and owners, saying whether they changed', async () => {
    const { lines } = await store().reviews.open(record, [line('i-1', 900)], () => [], at('2026-11-02T09:00:00Z'));
    const id = lines[0]!.id;
    expect((await store().reviews.answer(id, 'spot', 'U1', at('2026-11-03T09:00:00Z'))).changed).toBe(true);
    expect((await store().reviews.answer(id, 'spot', 'U2', at('2026-11-03T10:00:00Z'))).changed).toBe(false);
    const changed = await store().reviews.answer(id, 'still-needed', 'U2', at('2026-11-03T11:00:00Z'));
    expect(changed).toMatchObject({
      changed: true,
      line: { answer: 'still-needed', answeredBy: 'U2', answeredAt: at('2026-11-03T11:00:00Z') },
    });
    expect((await store().reviews.setOwner(id, 'U7', 'U1', at('2026-11-04T09:00:00Z'))).changed).toBe(true);
    expect((await store().reviews.setOwner(id, 'U7', 'U1', at('2026-11-04T09:00:00Z'))).changed).toBe(false);
    expect(await store().reviews.line(id)).toMatchObject({ owner: 'U7', ownerBy: 'U1', team: 'nlp', month: '2026-10', rank: 1 });
    expect(await store().reviews.line(id + 100)).toBeNull();
  });

  it('reminds and closes once, queueing with the mark', async () => {
    const { lines } = await store().reviews.open(record, [line('i-1', 900), line('i-2', 400)], () => [], at('2026-11-02T09:00:00Z'));
    const ids = lines.map((l) => l.id);
    expect(await store().reviews.remind('nlp', '2026-10', [ids[1]!], [draft('reminder')], at('2026-11-20T09:00:00Z'))).toBe(true);
    expect(await store().reviews.remind('nlp', '2026-10', ids, [draft('reminder-2')], at('2026-11-21T09:00:00Z'))).toBe(false);
    expect((await store().reviews.lines('nlp', '2026-10')).map((l) => l.remindedAt)).toEqual([null, at('2026-11-20T09:00:00Z')]);
    expect(await store().reviews.close('nlp', '2026-10', [draft('summary')], at('2026-11-30T09:00:00Z'))).toBe(true);
    expect(await store().reviews.close('nlp', '2026-10', [draft('summary-2')], at('2026-11-30T10:00:00Z'))).toBe(false);
    expect((await store().outbox.due(at('2026-12-01T00:00:00Z'))).map((i) => i.dedupeKey)).toEqual(['reminder', 'summary']);
    expect(await store().reviews.listOpen()).toEqual([]);
  });

  it('opens a review once when two replicas post it at once', async (context) => {
    await withSecondReplica(store, context, async (other) => {
      const open = (s: typeof other) =>
        s.reviews.open(
          record,
          [line('i-1', 900), line('i-2', 400)],
          (lines) => lines.map((l) => draft(`line:${l.rank}`)),
          at('2026-11-02T09:00:00Z'),
        );
      const results = await Promise.all([open(store()), open(other)]);
      expect(results.map((r) => r.created).sort()).toEqual([false, true]);
      expect((await store().reviews.lines('nlp', '2026-10')).length).toBe(2);
      expect((await store().outbox.summary()).pending).toBe(2);
    });
  });

  it('reminds and closes once when two replicas run the step at once', async (context) => {
    await withSecondReplica(store, context, async (other) => {
      const { lines } = await store().reviews.open(record, [line('i-1', 900)], () => [], at('2026-11-02T09:00:00Z'));
      const ids = lines.map((l) => l.id);
      const reminded = await Promise.all(
        [store(), other].map((s, n) => s.reviews.remind('nlp', '2026-10', ids, [draft(`reminder-${n}`)], at('2026-11-20T09:00:00Z'))),
      );
      const closed = await Promise.all(
        [store(), other].map((s, n) => s.reviews.close('nlp', '2026-10', [draft(`summary-${n}`)], at('2026-11-30T09:00:00Z'))),
      );
      expect([reminded.filter(Boolean), closed.filter(Boolean)]).toEqual([[true], [true]]);
      expect((await store().outbox.summary()).pending).toBe(2);
    });
  });

  it('reminds and closes nothing of a review never opened', async () => {
    expect(await store().reviews.remind('nlp', '2026-10', [], [draft('reminder')], at('2026-11-20T09:00:00Z'))).toBe(false);
    expect(await store().reviews.close('nlp', '2026-10', [draft('summary')], at('2026-11-30T09:00:00Z'))).toBe(false);
    expect((await store().outbox.summary()).pending).toBe(0);
    expect(await store().reviews.lines('nlp', '2026-10')).toEqual([]);
  });

  it('lists open reviews by team byte by byte, then month', async () => {
    const teams = ['Vision', 'ml-ops', 'ml_ops', 'mlops'];
    for (const team of [...teams].reverse())
      for (const month of ['2026-10', '2026-09'])
        await store().reviews.open({ ...record, team, month }, [], () => [], at('2026-11-02T09:00:00Z'));
    await store().reviews.close('mlops', '2026-09', [], at('2026-11-30T09:00:00Z'));
    expect((await store().reviews.listOpen()).map((r) => `${r.team} ${r.month}`)).toEqual([
      'Vision 2026-09',
      'Vision 2026-10',
      'ml-ops 2026-09',
      'ml-ops 2026-10',
      'ml_ops 2026-09',
      'ml_ops 2026-10',
      'mlops 2026-10',
    ]);
  });
});
