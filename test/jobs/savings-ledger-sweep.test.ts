import { describe, expect, it } from 'vitest';
import { DemoInstancePort } from '../../src/providers/demo/demo-instance-port.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { runSweepCheck } from '../../src/jobs/sweep-check.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { testDeps } from '../support/deps.js';
import { click } from '../support/recording-reply.js';
import { CAROL } from '../support/demo-org.js';

/** The demo at `now`, its cloud listing every instance as running (as EC2 does for a machine whose job ended). */
async function stopSweepAt(now: string) {
  const t = testDeps(demoConfig(), now);
  const gpu = buildGpuDeps(t.deps.config)!;
  const inventory = (await gpu.inventory()).instances;
  const port = new DemoInstancePort(inventory.map((i) => ({ id: i.instanceId, state: 'running', tags: { ...i.tags } })));
  t.deps.gpu = { ...gpu, instances: port };
  t.deps.config.actions.enabled = true;
  const [finding] = (await runSweepCheck(t.deps)).findings;
  const interaction = click(CAROL, 'sweep.stop', JSON.stringify({ f: finding!.id }));
  await dispatch(t.deps, interaction);
  return { deps: t.deps, finding: finding!, port, reply: interaction.reply };
}

describe('the savings ledger of a Stop sweep', () => {
  it('books no stop for a sweep none of whose instances ran, though the cloud stopped them all', async () => {
    // At midnight on 17 Nov the lr-warmup sweep is over its cap but none of its GPUs reports.
    const { deps, finding, port } = await stopSweepAt('2026-11-17T00:00:00Z');
    expect(finding.instances.filter((i) => i.running)).toEqual([]);
    expect(port.stopped.length).toBe(finding.instances.filter((i) => !i.protected).length);
    expect(await deps.store.savings.since('2026-11-01T00:00:00Z')).toEqual([]);
  });

  it('books the instances that ran, each at its own price a day', async () => {
    const { deps, finding } = await stopSweepAt('2026-11-18T06:00:00Z');
    const ran = finding.instances.filter((i) => i.running && !i.protected);
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.length).toBeLessThan(finding.instances.length);
    const entries = await deps.store.savings.since('2026-11-01T00:00:00Z');
    expect(entries.map((e) => [e.resourceId, e.expectedDaily])).toEqual(ran.map((i) => [i.instanceId, i.hourlyPrice * 24]));
  });
});
