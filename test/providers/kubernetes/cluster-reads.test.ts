import { describe, expect, it } from 'vitest';
import type { ClusterInventory } from '../../../src/domain/kubernetes.js';
import { BurnrateError } from '../../../src/domain/errors.js';
import { ClusterReads, REREAD_MS } from '../../../src/providers/kubernetes/cluster-reads.js';

const inventory = (nodes: number): ClusterInventory =>
  ({
    cluster: 'gpu-prod',
    nodes: Array.from({ length: nodes }, () => ({})),
    pods: [],
    namespaces: [],
    workloadAnnotations: new Map(),
  }) as never;

/** A cluster whose answers the test scripts: an inventory, or an error thrown. */
function scripted(answers: (ClusterInventory | Error)[]) {
  let now = 1_000_000;
  let asked = 0;
  const reads = new ClusterReads(
    'gpu-prod',
    async () => {
      const answer = answers[asked++];
      if (!answer) throw new Error('no answer scripted');
      if (answer instanceof Error) throw answer;
      return answer;
    },
    () => now,
  );
  return { reads, asked: () => asked, later: (ms: number) => (now += ms), now: () => now };
}

describe("a cluster's reads", () => {
  it('serve again within the reread time, so one run asks the API server once', async () => {
    const c = scripted([inventory(2), inventory(3)]);
    expect((await c.reads.state()).read.nodes).toHaveLength(2);
    c.later(REREAD_MS - 1);
    expect((await c.reads.state()).read.nodes).toHaveLength(2);
    c.later(1);
    expect((await c.reads.state()).read.nodes).toHaveLength(3);
    expect(c.asked()).toBe(2);
  });

  it('a cluster that stops answering keeps its last good read, marked stale with the error and when it was read', async () => {
    const c = scripted([inventory(2), new BurnrateError('burnrate_kube_forbidden', 'Cluster gpu-prod refused to let burnrate list nodes')]);
    await c.reads.state();
    const readAt = c.now();
    c.later(REREAD_MS);
    const state = await c.reads.state();
    expect(state).toMatchObject({ fresh: false, unanswered: { error: 'Cluster gpu-prod refused to let burnrate list nodes' } });
    expect(state.read.nodes).toHaveLength(2);
    expect(state.unanswered!.lastGoodAt!.getTime()).toBe(readAt);
  });

  it('one that never answered is an empty cluster, marked so, instead of an error; the failure is asked again only after the reread time', async () => {
    const c = scripted([new Error('connect ECONNREFUSED 127.0.0.1:6443'), inventory(1)]);
    const state = await c.reads.state();
    expect(state).toMatchObject({
      fresh: false,
      read: { cluster: 'gpu-prod', nodes: [], pods: [] },
      unanswered: { error: 'Cluster gpu-prod did not answer: connect ECONNREFUSED 127.0.0.1:6443', lastGoodAt: null },
    });
    expect((await c.reads.state()).fresh).toBe(false);
    expect(c.asked()).toBe(1);
    c.later(REREAD_MS);
    expect(await c.reads.state()).toMatchObject({ fresh: true, read: { nodes: [{}] } });
  });
});
