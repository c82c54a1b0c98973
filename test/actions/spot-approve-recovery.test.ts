import { describe, expect, it } from 'vitest';
import type { DemoSpotPort } from '../../src/providers/demo/demo-spot-port.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { testDeps } from '../support/deps.js';
import { ADMIN, BOB } from '../support/demo-org.js';
import { dispatchClick as press } from '../support/dispatch-click.js';
const LT = 'lt-0a3f9c1e7d2b4a6c8';

/** The demo with actions on: research-train-fra's launch template lives in the demo spot port. */
async function setup() {
  const config = demoConfig();
  config.actions.enabled = true;
  const t = testDeps(config, '2026-11-18T06:00:00Z');
  t.deps.gpu = buildGpuDeps(t.deps.config)!;
  const fra = (await t.deps.gpu.inventory()).instances.find((i) => i.name === 'research-train-fra')!.instanceId;
  return { ...t, fra, port: (await t.deps.gpu.spot!.at('demo')) as DemoSpotPort };
}

describe('a spot migration whose process died half-way', () => {
  it('stays claimed for a while, then the next approval click finishes it', async () => {
    const { deps, fra, port, setNow } = await setup();
    await press(deps, BOB, 'spot.approve', { i: fra });
    await press(deps, ADMIN, 'spot.approve', { i: fra });
    expect(port.defaultsToSpot(LT)).toBe(true);
    // Revert claims the migration, then "dies" before the launch template is changed back.
    const migration = (await deps.store.spotMigrations.active(fra))!;
    expect(await deps.store.spotMigrations.transition(migration.id, 'migrated', 'reverting', deps.clock())).toBe(true);

    setNow('2026-11-18T06:05:00Z');
    const early = await press(deps, BOB, 'spot.revert', { m: migration.id });
    expect(early.text()).toContain('research-train-fra is being reverted already.');
    expect(port.defaultsToSpot(LT)).toBe(true);

    setNow('2026-11-18T06:20:00Z');
    const late = await press(deps, BOB, 'spot.revert', { m: migration.id });
    expect(late.privates).toHaveLength(0);
    expect(renderPlainText(late.threads[0]!)).toContain('research-train-fra is back on on-demand capacity, reverted by U0DEMOBOB');
    expect(port.defaultsToSpot(LT)).toBe(false);
    expect((await deps.store.spotMigrations.get(migration.id))?.state).toBe('reverted');
  });

  it('a migration that died while changing the template is finished by the next approver click', async () => {
    const { deps, fra, port, setNow } = await setup();
    await press(deps, BOB, 'spot.approve', { i: fra });
    const migration = (await deps.store.spotMigrations.active(fra))!;
    // The second approval was recorded and claimed, then the process died.
    const second = await deps.store.spotMigrations.approve({
      instanceId: fra,
      team: migration.team,
      launchTemplate: LT,
      place: 'demo',
      monthlySaving: migration.monthlySaving,
      approvalsNeeded: 2,
      approver: ADMIN,
      at: deps.clock(),
    });
    expect(second.outcome).toBe('recorded');
    expect(await deps.store.spotMigrations.transition(migration.id, 'approving', 'migrating', deps.clock())).toBe(true);
    setNow('2026-11-18T06:30:00Z');
    const retry = await press(deps, BOB, 'spot.approve', { i: fra });
    expect(retry.privates).toHaveLength(0);
    expect(renderPlainText(retry.threads[0]!)).toContain('research-train-fra moves to spot');
    expect(port.defaultsToSpot(LT)).toBe(true);
    expect((await deps.store.spotMigrations.get(migration.id))?.state).toBe('migrated');
  });
});
