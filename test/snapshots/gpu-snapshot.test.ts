import { describe, expect, it } from 'vitest';
import { DemoInstancePort } from '../../src/providers/demo/demo-instance-port.js';
import type { GpuInstance } from '../../src/domain/gpu-inventory.js';
import type { MetricsRange } from '../../src/domain/gpu-metrics.js';
import { UNTAGGED } from '../../src/domain/spend.js';
import { loadGpuSnapshot } from '../../src/snapshots/gpu-snapshot.js';
import { metricsWindow } from '../../src/snapshots/gpu-windows.js';
import { caughtBurnrateError } from '../support/aws-test-env.js';
import { testDeps } from '../support/deps.js';
import { g5Instance, seriesOf } from '../support/g5-instance.js';

const instance = g5Instance;
const series = seriesOf;

const TAGGED = instance('i-0a00000000000000a', 'vision', ['ip-10-0-1-17.ec2.internal']);
// Untagged, running pods of llm's namespace; handed to vision by hand later in some tests.
const UNTAGGED_LLM = instance('i-0b00000000000000b', UNTAGGED, ['ip-10-0-2-5.ec2.internal']);

/** Two teams, one claiming a namespace; a fleet of two instances whose GPUs report by host name. */
function fleet() {
  const t = testDeps({
    teams: [
      { id: 'llm', gpu: { namespaces: ['ray-llm'] } },
      { id: 'vision', gpu: {} },
    ],
  });
  const asked: MetricsRange[] = [];
  const metrics = [
    series({ host: 'ip-10-0-1-17', gpu: '0' }),
    series({ host: 'i-0b00000000000000b', gpu: '0', namespace: 'ray-llm' }),
    series({ host: 'ip-10-0-99-1', gpu: '0' }),
  ];
  t.deps.gpu = {
    metrics: [{ id: 'fake', type: 'fake', fetch: async (range) => (asked.push(range), metrics) }],
    inventory: async () => ({ instances: [TAGGED, UNTAGGED_LLM], unavailable: [] }),
    instances: new DemoInstancePort([]),
  };
  return { ...t, asked };
}

const teamsOf = (s: { series: { instance: GpuInstance }[] }) => s.series.map((g) => `${g.instance.instanceId}=${g.instance.team}`);

describe('the GPU snapshot', () => {
  it('reads every metrics source over the window it is given and ties series to instances; unknown hosts are left out', async () => {
    const { deps, asked } = fleet();
    const window = metricsWindow(deps, deps.clock());
    const snapshot = await loadGpuSnapshot(deps, { window });
    expect(asked).toEqual([window]);
    expect(snapshot.window).toEqual(window);
    expect(snapshot.instances.map((i) => i.instanceId)).toEqual([TAGGED.instanceId, UNTAGGED_LLM.instanceId]);
    expect(snapshot.series.map((g) => g.series.ref.host)).toEqual(['ip-10-0-1-17', 'i-0b00000000000000b']);
  });

  it("with owners, an untagged instance is its namespace's team's and hand-overs to configured teams count", async () => {
    const { deps } = fleet();
    await deps.store.instanceOwners.reassign({ instanceId: UNTAGGED_LLM.instanceId, team: 'vision', byUser: 'U1', at: deps.clock() }, []);
    await deps.store.instanceOwners.reassign({ instanceId: TAGGED.instanceId, team: 'no-such-team', byUser: 'U1', at: deps.clock() }, []);
    const snapshot = await loadGpuSnapshot(deps, { window: metricsWindow(deps, deps.clock()) });
    expect(teamsOf(snapshot)).toEqual([`${TAGGED.instanceId}=vision`, `${UNTAGGED_LLM.instanceId}=llm`]);
    expect([...snapshot.handedTo]).toEqual([[UNTAGGED_LLM.instanceId, 'vision']]);
    // The inventory records themselves keep their tags.
    expect(snapshot.instances.map((i) => i.team)).toEqual(['vision', UNTAGGED]);
  });

  it('with tags only, namespaces and hand-overs are ignored', async () => {
    const { deps } = fleet();
    await deps.store.instanceOwners.reassign({ instanceId: UNTAGGED_LLM.instanceId, team: 'vision', byUser: 'U1', at: deps.clock() }, []);
    const snapshot = await loadGpuSnapshot(deps, { window: metricsWindow(deps, deps.clock()), ownership: 'tags' });
    expect(teamsOf(snapshot)).toEqual([`${TAGGED.instanceId}=vision`, `${UNTAGGED_LLM.instanceId}=${UNTAGGED}`]);
    expect(snapshot.handedTo.size).toBe(0);
  });

  it('keeps to its scope: some instances, or one team by its tag', async () => {
    const { deps } = fleet();
    const window = metricsWindow(deps, deps.clock());
    const some = await loadGpuSnapshot(deps, { window, scope: { instanceIds: [UNTAGGED_LLM.instanceId] } });
    expect(some.instances.map((i) => i.instanceId)).toEqual([UNTAGGED_LLM.instanceId]);
    expect(some.series.map((g) => g.series.ref.host)).toEqual(['i-0b00000000000000b']);
    // llm by namespace only: its tag names no team, so a scope of team llm leaves it out.
    expect((await loadGpuSnapshot(deps, { window, scope: { team: 'llm' } })).instances).toEqual([]);
    expect((await loadGpuSnapshot(deps, { window, scope: { team: 'vision' } })).instances.map((i) => i.instanceId)).toEqual([
      TAGGED.instanceId,
    ]);
  });

  it('says how to configure GPU sources when there are none', async () => {
    const { deps } = testDeps({ teams: [{ id: 'llm' }] });
    const error = await caughtBurnrateError(loadGpuSnapshot(deps, { window: metricsWindow(deps, deps.clock()) }));
    expect(error.code).toBe('burnrate_gpu_unconfigured');
    expect(error.message).toContain('No GPU metrics are configured');
  });
});
