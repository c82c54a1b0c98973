import { describe, expect, it } from 'vitest';
import { ConsoleChat } from '../../src/chat/console/console-chat.js';
import type { DemoSpotPort } from '../../src/providers/demo/demo-spot-port.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { DEMO_PEOPLE } from '../../src/providers/demo/demo-people.js';
import { NamedPeople } from '../../src/ports/named-people.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { testDeps } from '../support/deps.js';
import { ALICE, BOB, CAROL } from '../support/demo-org.js';
import { dispatchClick as press } from '../support/dispatch-click.js';

const LT = 'lt-0a3f9c1e7d2b4a6c8';
const name = (id: string) => DEMO_PEOPLE[id]!;

/**
 * The demo (ML Research: owner ALICE, one approver BOB) with actions on, research-train-fra's spot
 * saving above the two-person limit, and the console naming the demo's people.
 */
async function setup(ownersApprove: boolean) {
  const config = demoConfig();
  config.actions.enabled = true;
  config.spot.ownersApprove = ownersApprove;
  const t = testDeps(config, '2026-11-18T06:00:00Z');
  t.deps.gpu = buildGpuDeps(t.deps.config)!;
  t.deps.chat = [new ConsoleChat(t.deps.store.console, t.deps.clock, new NamedPeople(DEMO_PEOPLE))];
  const fra = (await t.deps.gpu.inventory()).instances.find((i) => i.name === 'research-train-fra')!.instanceId;
  return { ...t, fra, port: (await t.deps.gpu.spot!.at('demo')) as DemoSpotPort };
}

describe('the two-person rule for spot migrations', () => {
  it('without spot.ownersApprove: the owner is refused with the approver named, and the approver is told nobody else of the team can approve', async () => {
    const { deps, fra, port } = await setup(false);
    const refused = await press(deps, ALICE, 'spot.approve', { i: fra });
    expect(refused.text()).toContain('Only approvers of ML Research can approve moving research-train-fra to spot');
    expect(refused.text()).toContain(`Ask ${name(BOB)} or an admin.`);
    const first = await press(deps, BOB, 'spot.approve', { i: fra });
    const pending = renderPlainText(first.threads[0]!);
    expect(pending).toContain(`approved by ${name(BOB)} (1 of 2)`);
    expect(pending).toContain('Nobody else of the team may approve it: an admin can.');
    expect(port.defaultsToSpot(LT)).toBe(false);
  });

  it('with spot.ownersApprove: an owner and an approver are the two different approvers the rule needs', async () => {
    const { deps, fra, port } = await setup(true);
    const first = await press(deps, ALICE, 'spot.approve', { i: fra });
    const pending = renderPlainText(first.threads[0]!);
    expect(pending).toContain(`approved by ${name(ALICE)} (1 of 2)`);
    expect(pending).toContain(`Waiting for ${name(BOB)}.`);
    expect(port.defaultsToSpot(LT)).toBe(false);
    // Someone of another team is still refused, told whom to ask (owners and approvers alike).
    expect((await press(deps, CAROL, 'spot.approve', { i: fra })).text()).toContain(`Ask ${name(BOB)}, ${name(ALICE)} or an admin.`);
    const second = await press(deps, BOB, 'spot.approve', { i: fra });
    expect(renderPlainText(second.threads[0]!)).toContain(`approved by ${name(ALICE)} and ${name(BOB)}`);
    expect(port.defaultsToSpot(LT)).toBe(true);
  });
});
