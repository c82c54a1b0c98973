import { expect, it } from 'vitest';
import type { SpotApprovalDraft } from '../../../src/domain/spot-migration.js';
import type { Store } from '../../../src/store/store.js';
import { withSecondReplica } from '../../support/second-replica.js';
import { describeStores } from '../../support/stores.js';

const FRA = 'i-0fra1trainer';
const at = (iso: string) => new Date(iso);
const draft = (approver: string, overrides: Partial<SpotApprovalDraft> = {}): SpotApprovalDraft => ({
  instanceId: FRA,
  team: 'llm-training',
  launchTemplate: 'lt-0fra1',
  place: 'aws:eu-central-1',
  monthlySaving: 1234.5,
  approvalsNeeded: 2,
  approver,
  at: at('2026-11-18T09:00:00Z'),
  ...overrides,
});

/** A migration of FRA approved by one approver and moved to `migrating`. */
async function migrating(store: Store): Promise<number> {
  const { migration } = await store.spotMigrations.approve(draft('U0DAN', { approvalsNeeded: 1 }));
  expect(await store.spotMigrations.transition(migration.id, 'approving', 'migrating', at('2026-11-18T09:00:05Z'))).toBe(true);
  return migration.id;
}

describeStores('spot migrations', (store) => {
  it('starts a migration at the first approval and records each approver once', async () => {
    const first = await store().spotMigrations.approve(draft('U0DAN'));
    expect(first.outcome).toBe('recorded');
    expect(first.migration).toEqual({
      id: first.migration.id,
      instanceId: FRA,
      team: 'llm-training',
      launchTemplate: 'lt-0fra1',
      place: 'aws:eu-central-1',
      monthlySaving: 1234.5,
      approvalsNeeded: 2,
      state: 'approving',
      previousVersion: null,
      spotVersion: null,
      createdAt: at('2026-11-18T09:00:00Z'),
      migratedAt: null,
      revertedBy: null,
      revertedAt: null,
      detail: null,
      changedAt: at('2026-11-18T09:00:00Z'),
      approvals: [{ approver: 'U0DAN', at: at('2026-11-18T09:00:00Z') }],
    });

    const again = await store().spotMigrations.approve(draft('U0DAN', { at: at('2026-11-18T09:05:00Z') }));
    expect(again.outcome).toBe('same-approver');
    // Two approvers at the same instant: listed in the order they approved.
    const second = await store().spotMigrations.approve(draft('U0BOB', { monthlySaving: 99, team: 'other' }));
    expect(second.outcome).toBe('recorded');
    expect(second.migration).toMatchObject({ id: first.migration.id, monthlySaving: 1234.5, team: 'llm-training' });
    expect(second.migration.approvals.map((a) => a.approver)).toEqual(['U0DAN', 'U0BOB']);

    expect(await store().spotMigrations.get(first.migration.id)).toEqual(second.migration);
    expect(await store().spotMigrations.active(FRA)).toEqual(second.migration);
    expect(await store().spotMigrations.active('i-0other')).toBeNull();
    expect(await store().spotMigrations.get(first.migration.id + 1000)).toBeNull();
  });

  it('refuses approvals once past approving, and moves state only from the state expected', async () => {
    const id = await migrating(store());
    expect(await store().spotMigrations.transition(id, 'approving', 'migrating', at('2026-11-18T09:00:06Z'))).toBe(false);
    const late = await store().spotMigrations.approve(draft('U0BOB'));
    expect(late.outcome).toBe('not-approving');
    expect(late.migration).toMatchObject({ id, state: 'migrating', changedAt: at('2026-11-18T09:00:05Z') });
    expect(late.migration.approvals.map((a) => a.approver)).toEqual(['U0DAN']);
  });

  it('completes a migration and its revert, after which a new migration may start', async () => {
    const id = await migrating(store());
    // Completing requires the state it completes: a second completion changes nothing.
    await store().spotMigrations.completeMigration(id, {
      previousVersion: '3',
      spotVersion: '4',
      at: at('2026-11-18T09:01:00Z'),
      detail: 'default version 4',
    });
    await store().spotMigrations.completeMigration(id, {
      previousVersion: 'x',
      spotVersion: 'y',
      at: at('2026-11-18T09:02:00Z'),
      detail: 'again',
    });
    expect(await store().spotMigrations.get(id)).toMatchObject({
      state: 'migrated',
      previousVersion: '3',
      spotVersion: '4',
      migratedAt: at('2026-11-18T09:01:00Z'),
      detail: 'default version 4',
      changedAt: at('2026-11-18T09:00:05Z'),
    });
    await store().spotMigrations.completeRevert(id, { byUser: 'U0EVE', at: at('2026-11-20T10:00:00Z'), detail: 'not reverting' });
    expect((await store().spotMigrations.get(id))?.state).toBe('migrated');

    expect(await store().spotMigrations.transition(id, 'migrated', 'reverting', at('2026-11-20T10:00:00Z'))).toBe(true);
    await store().spotMigrations.completeRevert(id, { byUser: 'U0EVE', at: at('2026-11-20T10:00:30Z'), detail: 'default version 3' });
    expect(await store().spotMigrations.get(id)).toMatchObject({
      state: 'reverted',
      revertedBy: 'U0EVE',
      revertedAt: at('2026-11-20T10:00:30Z'),
      detail: 'default version 3',
      changedAt: at('2026-11-20T10:00:00Z'),
    });
    expect(await store().spotMigrations.active(FRA)).toBeNull();

    const next = await store().spotMigrations.approve(draft('U0BOB', { at: at('2026-11-21T08:00:00Z') }));
    expect(next.outcome).toBe('recorded');
    expect(next.migration.id).not.toBe(id);
    expect(next.migration.approvals).toEqual([{ approver: 'U0BOB', at: at('2026-11-21T08:00:00Z') }]);
    expect(await store().spotMigrations.active(FRA)).toEqual(next.migration);
  });

  it('takes over a migrating or reverting claim only once it is stale', async () => {
    const id = await migrating(store());
    const stale = at('2026-11-18T09:00:05Z');
    expect(await store().spotMigrations.reclaimStale(id, 'migrating', stale, at('2026-11-18T09:20:00Z'))).toBe(false);
    expect(await store().spotMigrations.reclaimStale(id, 'reverting', at('2026-11-18T09:10:00Z'), at('2026-11-18T09:20:00Z'))).toBe(false);
    expect(await store().spotMigrations.reclaimStale(id, 'migrating', at('2026-11-18T09:10:00Z'), at('2026-11-18T09:20:00Z'))).toBe(true);
    expect((await store().spotMigrations.get(id))?.changedAt).toEqual(at('2026-11-18T09:20:00Z'));
    // Taken over: fresh again for whoever comes next.
    expect(await store().spotMigrations.reclaimStale(id, 'migrating', at('2026-11-18T09:10:00Z'), at('2026-11-18T09:21:00Z'))).toBe(false);
  });

  it('records concurrent approvals on one migration, and lets one of concurrent clicks move it or take it over', async () => {
    await clickAtOnce([store()]);
  });

  it('does the same for clicks on two replicas', async (context) => {
    await withSecondReplica(store, context, (other) => clickAtOnce([store(), other]));
  });
});

/** Concurrent clicks on `stores` (one store, or two replicas of one database): one migration, one mover. */
async function clickAtOnce(stores: Store[]): Promise<void> {
  const approvers = stores.flatMap((_, i) => Array.from({ length: 4 }, (_, j) => `U${i}${j}`));
  const approvals = await Promise.all(approvers.map((a, k) => stores[k % stores.length]!.spotMigrations.approve(draft(a))));
  expect(new Set(approvals.map((r) => r.migration.id)).size).toBe(1);
  expect(approvals.map((r) => r.outcome)).toEqual(approvers.map(() => 'recorded'));
  const migration = (await stores[0]!.spotMigrations.active(FRA))!;
  expect(migration.approvals.map((a) => a.approver).sort()).toEqual([...approvers].sort());

  const same = await Promise.all(stores.flatMap((s) => [s, s, s]).map((s) => s.spotMigrations.approve(draft('U0SAME'))));
  expect(same.filter((r) => r.outcome === 'recorded')).toHaveLength(1);

  const moves = await Promise.all(
    stores
      .flatMap((s) => [s, s, s])
      .map((s) => s.spotMigrations.transition(migration.id, 'approving', 'migrating', at('2026-11-18T09:01:00Z'))),
  );
  expect(moves.filter(Boolean)).toHaveLength(1);
  const takeovers = await Promise.all(
    stores
      .flatMap((s) => [s, s, s])
      .map((s) => s.spotMigrations.reclaimStale(migration.id, 'migrating', at('2026-11-18T09:30:00Z'), at('2026-11-18T09:40:00Z'))),
  );
  expect(takeovers.filter(Boolean)).toHaveLength(1);
}
