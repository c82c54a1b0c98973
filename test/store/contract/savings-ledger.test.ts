import { expect, it } from 'vitest';
import type { Recommendation } from '../../../src/domain/recommendation.js';
import type { ReviewFigures, ReviewLine } from '../../../src/domain/review.js';
import type { SavingEntry } from '../../../src/domain/saving.js';
import type { Store } from '../../../src/store/store.js';
import { describeStores } from '../../support/stores.js';

const at = (iso: string) => new Date(iso);
const DAYS_PER_MONTH = 365.25 / 12;

const stopped = (resourceId: string, when: string, ref = 'gpu-idle:alice-notebook'): SavingEntry => ({
  action: 'instance.stop',
  ref,
  resourceId,
  name: null,
  team: 'ml-research',
  at: at(when),
  byUser: 'U0ALICE',
  expectedDaily: 24.5,
  currency: 'USD',
});

async function complete(store: Store, findingId: string, savings: SavingEntry[]): Promise<void> {
  await store.instanceActions.claim({
    findingId,
    action: 'instance.stop',
    instanceId: savings[0]!.resourceId,
    byUser: 'U0ALICE',
    at: savings[0]!.at,
  });
  await store.instanceActions.complete(findingId, 'instance.stop', 'stopped', 'stopped', savings);
}

/** A spot migration of `instanceId` approved by `approvers` (all at once), migrated at `migratedAt`. */
async function migrated(store: Store, instanceId: string, approvers: string[], migratedAt: string): Promise<number> {
  let id = 0;
  for (const approver of approvers) {
    const { migration } = await store.spotMigrations.approve({
      instanceId,
      team: 'llm-training',
      launchTemplate: 'lt-0fra1',
      place: 'demo',
      monthlySaving: 900,
      approvalsNeeded: 2,
      approver,
      at: at('2026-11-10T08:00:00Z'),
    });
    id = migration.id;
  }
  await store.spotMigrations.transition(id, 'approving', 'migrating', at(migratedAt));
  await store.spotMigrations.completeMigration(id, { previousVersion: '1', spotVersion: '2', at: at(migratedAt), detail: 'spot' });
  return id;
}

describeStores('savings ledger', (store) => {
  it('lists the stops recorded since a time, oldest first, those of one instant as written', async () => {
    await complete(store(), 'f-late', [stopped('i-0late', '2026-11-12T10:00:00.000Z', 'f-late')]);
    await complete(store(), 'f-sweep', [
      stopped('i-0z', '2026-11-11T10:00:00.000Z', 'f-sweep'),
      stopped('i-0a', '2026-11-11T10:00:00.000Z', 'f-sweep'),
      stopped('i-0m', '2026-11-11T10:00:00.000Z', 'f-sweep'),
    ]);
    await complete(store(), 'f-old', [stopped('i-0old', '2026-10-01T10:00:00.000Z', 'f-old')]);

    expect((await store().savings.since('2026-11-01T00:00:00.000Z')).map((e) => e.resourceId)).toEqual(['i-0z', 'i-0a', 'i-0m', 'i-0late']);
    expect(await store().savings.since('2026-11-12T10:00:00.000Z')).toEqual([stopped('i-0late', '2026-11-12T10:00:00.000Z', 'f-late')]);
    expect(await store().savings.since('2026-12-01T00:00:00.000Z')).toEqual([]);
  });

  it('ends a Stop at the Resume clicked on the same alert, once the Resume is done', async () => {
    await complete(store(), 'f-wl', [stopped('team-a/deployment/llm-serve', '2026-11-11T10:00:00.000Z', 'f-wl')]);
    await complete(store(), 'f-other', [stopped('i-0other', '2026-11-11T11:00:00.000Z', 'f-other')]);
    const resume = { findingId: 'f-wl', action: 'workload.resume', instanceId: 'team-a/deployment/llm-serve', byUser: 'U0BOB' };
    // Claimed 8 s later but not done yet (the cluster not answered): the stop still holds.
    await store().instanceActions.claim({ ...resume, at: at('2026-11-11T10:00:08.000Z') });
    expect((await store().savings.since('2026-11-01T00:00:00.000Z')).map((e) => e.endedAt)).toEqual([undefined, undefined]);
    await store().instanceActions.complete('f-wl', 'workload.resume', 'resumed', 'replicas back to 2');
    expect(await store().savings.since('2026-11-01T00:00:00.000Z')).toEqual([
      { ...stopped('team-a/deployment/llm-serve', '2026-11-11T10:00:00.000Z', 'f-wl'), endedAt: at('2026-11-11T10:00:08.000Z') },
      stopped('i-0other', '2026-11-11T11:00:00.000Z', 'f-other'),
    ]);
  });

  it('counts a spot migration from when it migrated, by its last approver, until it is reverted', async () => {
    const id = await migrated(store(), 'i-0fra1', ['U0DAN', 'U0BOB'], '2026-11-11T10:00:00.000Z');
    await complete(store(), 'f-same-time', [stopped('i-0same', '2026-11-11T10:00:00.000Z', 'f-same-time')]);
    const migration: SavingEntry = {
      action: 'spot.approve',
      ref: `migration:${id}`,
      resourceId: 'i-0fra1',
      name: null,
      team: 'llm-training',
      at: at('2026-11-11T10:00:00.000Z'),
      // Both approved at the same instant: the later approval is the last.
      byUser: 'U0BOB',
      expectedDaily: 900 / DAYS_PER_MONTH,
      currency: 'USD',
    };
    // An instant's ledger entries come before its migrations.
    expect(await store().savings.since('2026-11-01T00:00:00.000Z')).toEqual([
      stopped('i-0same', '2026-11-11T10:00:00.000Z', 'f-same-time'),
      migration,
    ]);
    expect(await store().savings.since('2026-11-11T10:00:00.001Z')).toEqual([]);

    await store().spotMigrations.transition(id, 'migrated', 'reverting', at('2026-11-15T09:00:00Z'));
    await store().spotMigrations.completeRevert(id, { byUser: 'U0EVE', at: at('2026-11-15T09:00:01Z'), detail: 'on demand' });
    expect((await store().savings.since('2026-11-01T00:00:00.000Z'))[1]).toEqual({ ...migration, endedAt: at('2026-11-15T09:00:01Z') });

    // Not migrated (yet): no entry.
    await store().spotMigrations.approve({
      instanceId: 'i-0new',
      team: 'llm-training',
      launchTemplate: 'lt-0new',
      place: 'demo',
      monthlySaving: 5,
      approvalsNeeded: 1,
      approver: 'U0DAN',
      at: at('2026-11-16T00:00:00Z'),
    });
    expect(await store().savings.since('2026-11-01T00:00:00.000Z')).toHaveLength(2);
  });

  it('counts a review line answered "Right-size" that carried a right-size recommendation', async () => {
    const review = await store().reviews.open(
      {
        team: 'nlp',
        month: '2026-10',
        // The store keeps the figures as given; the ledger does not read them.
        figures: { team: 'nlp', teamName: 'NLP', month: '2026-10' } as ReviewFigures,
        createdAt: at('2026-11-02T09:00:00Z'),
        closesAt: at('2026-11-09T09:00:00Z'),
      },
      [
        line('i-0big', [
          recommendation('spot', 'i-0big', 700),
          recommendation('right-size', 'i-0big', 300),
          recommendation('right-size', 'i-0big', 1),
        ]),
        line('i-0spot', [recommendation('spot', 'i-0spot', 500)]),
        line(null, [recommendation('right-size', 'i-0none', 200)]),
        line('i-0free', [recommendation('right-size', 'i-0free', 0)]),
        line('i-0kept', [recommendation('right-size', 'i-0kept', 80)]),
      ],
      () => [],
      at('2026-11-02T09:00:00Z'),
    );
    const answer = (rank: number, answer: 'right-size' | 'still-needed', when: string) =>
      store().reviews.answer(review.lines.find((l) => l.rank === rank)!.id, answer, 'U0CAROL', at(when));
    await answer(1, 'right-size', '2026-11-03T10:00:00.000Z');
    for (const rank of [2, 3, 4]) await answer(rank, 'right-size', '2026-11-03T10:00:00.000Z');
    await answer(5, 'still-needed', '2026-11-03T10:00:00.000Z');

    expect(await store().savings.since('2026-11-01T00:00:00.000Z')).toEqual([
      {
        action: 'review.right-size',
        ref: 'review:nlp:2026-10:1',
        resourceId: 'i-0big',
        name: 'big-i-0big',
        team: 'nlp',
        at: at('2026-11-03T10:00:00.000Z'),
        byUser: 'U0CAROL',
        expectedDaily: 300 / DAYS_PER_MONTH,
        currency: 'USD',
      },
    ]);
    expect(await store().savings.since('2026-11-03T10:00:00.001Z')).toEqual([]);
  });
});

function recommendation(kind: Recommendation['kind'], instanceId: string, monthlySaving: number): Recommendation {
  return {
    id: `${kind}:${instanceId}`,
    kind,
    instanceId,
    name: null,
    team: 'nlp',
    provider: 'aws',
    region: 'eu-central-1',
    current: { instanceType: 'p4d.24xlarge', lifecycle: 'on-demand', hourly: 32.77 },
    proposed: { instanceType: 'g6e.12xlarge', lifecycle: kind === 'spot' ? 'spot' : 'on-demand', hourly: 10.49 },
    hoursPerMonth: 730,
    monthlySaving,
    evidence: [],
    confidence: 'medium',
  };
}

function line(resourceId: string | null, recommendations: Recommendation[]): ReviewLine {
  return {
    key: resourceId ?? 'Amazon SageMaker',
    label: `big-${resourceId}`,
    resourceId,
    service: 'Amazon Elastic Compute Cloud',
    category: 'Compute',
    pricing: 'Standard',
    cost: 1200,
    instanceType: 'p4d.24xlarge',
    workload: null,
    spotSaving: null,
    recommendations,
  };
}
