import { expect, it } from 'vitest';
import type { SavingEntry } from '../../../src/domain/saving.js';
import type { Store } from '../../../src/store/store.js';
import { withSecondReplica } from '../../support/second-replica.js';
import { describeStores } from '../../support/stores.js';

const AT = new Date('2026-11-18T09:30:00Z');
const stop = (byUser: string, at = AT) => ({
  findingId: 'gpu-idle:i-0notebook',
  action: 'instance.stop',
  instanceId: 'i-0notebook',
  byUser,
  at,
});
const saving = (resourceId: string): SavingEntry => ({
  action: 'sweep.stop',
  ref: 'sweep:lr-sweep-7',
  resourceId,
  name: `trial-${resourceId}`,
  team: 'ml-research',
  at: AT,
  byUser: 'U0ALICE',
  expectedDaily: 31.2,
  currency: 'USD',
});

/** Claims the same stop from every store at once, each store several times; who won. */
async function race(stores: Store[], perStore: number): Promise<{ winners: string[]; seen: Set<string> }> {
  const claims = stores.flatMap((s, i) => Array.from({ length: perStore }, (_, j) => s.instanceActions.claim(stop(`U${i}-${j}`))));
  const results = await Promise.all(claims);
  return { winners: results.filter((r) => r.first).map((r) => r.record.byUser), seen: new Set(results.map((r) => r.record.byUser)) };
}

describeStores('instance actions', (store) => {
  it('lets the first claim act and shows the others that claim', async () => {
    const first = await store().instanceActions.claim(stop('U0ALICE'));
    const second = await store().instanceActions.claim(stop('U0BOB', new Date('2026-11-18T09:31:00Z')));
    const claimed = { ...stop('U0ALICE'), outcome: null, detail: null };
    expect(first).toEqual({ first: true, record: claimed });
    expect(second).toEqual({ first: false, record: claimed });
    expect(await store().instanceActions.get('gpu-idle:i-0notebook', 'instance.stop')).toEqual(claimed);
    expect(await store().instanceActions.get('gpu-idle:i-0notebook', 'instance.resume')).toBeNull();
  });

  it('records the outcome, and the savings once however often it completes', async () => {
    await store().instanceActions.claim(stop('U0ALICE'));
    await store().instanceActions.complete('gpu-idle:i-0notebook', 'instance.stop', 'stopped', 'i-0a, i-0b stopped', [
      saving('i-0a'),
      saving('i-0b'),
    ]);
    await store().instanceActions.complete('gpu-idle:i-0notebook', 'instance.stop', 'stopped', 'again', [saving('i-0a')]);
    expect(await store().instanceActions.get('gpu-idle:i-0notebook', 'instance.stop')).toEqual({
      ...stop('U0ALICE'),
      outcome: 'stopped',
      detail: 'again',
    });
    expect(await store().savings.since('2026-11-18T00:00:00.000Z')).toEqual([saving('i-0a'), saving('i-0b')]);
  });

  it('completes without savings, and a release lets the action be claimed afresh', async () => {
    await store().instanceActions.claim(stop('U0ALICE'));
    await store().instanceActions.complete('gpu-idle:i-0notebook', 'instance.stop', 'dry-run', 'would have stopped');
    expect((await store().instanceActions.get('gpu-idle:i-0notebook', 'instance.stop'))?.outcome).toBe('dry-run');
    expect(await store().savings.since('2026-01-01T00:00:00.000Z')).toEqual([]);

    await store().instanceActions.release('gpu-idle:i-0notebook', 'instance.stop');
    expect(await store().instanceActions.get('gpu-idle:i-0notebook', 'instance.stop')).toBeNull();
    expect((await store().instanceActions.claim(stop('U0BOB'))).first).toBe(true);
  });

  it('gives one of concurrent claims the action', async () => {
    const { winners, seen } = await race([store()], 8);
    expect(winners).toHaveLength(1);
    expect([...seen]).toEqual(winners);
  });

  it('gives one of concurrent claims from two replicas the action', async (context) => {
    await withSecondReplica(store, context, async (other) => {
      const { winners, seen } = await race([store(), other], 6);
      expect(winners).toHaveLength(1);
      expect([...seen]).toEqual(winners);
    });
  });
});
