import type { DemoInstancePort } from '../../src/providers/demo/demo-instance-port.js';
import type { Config } from '../../src/config/schema.js';
import type { Deps } from '../../src/deps.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { testDeps } from './deps.js';
import { dispatchClick } from './dispatch-click.js';

// Demo users (test/support/demo-org.ts): ALICE owns ml-research, BOB approves it, CAROL owns llm-training.
export { ALICE, BOB, CAROL, STRANGER } from './demo-org.js';
/** Wednesday 18 Nov 2026 06:00Z (07:00 in Berlin): ml-research has two idle notebooks, llm-training a stalled pre-training node. */
export const T = '2026-11-18T06:00:00Z';

/** The demo organisation and fleet on real parts, at T; `change` edits the configuration first. */
export function gpuDemo(change: (config: Config) => void = () => {}, dbPath?: string) {
  const config = demoConfig();
  change(config);
  const t = testDeps(config, T, dbPath);
  t.deps.gpu = buildGpuDeps(t.deps.config)!;
  return { ...t, port: t.deps.gpu.instances as DemoInstancePort };
}

/** The id of the open idle finding of the instance with this Name tag. */
export function findingOf(deps: Deps, name: string): Promise<string> {
  return openFinding(deps, (f) => f.name === name, name);
}

/** The id of the open idle finding of this instance (or workload) id. */
export function findingOfInstance(deps: Deps, instanceId: string): Promise<string> {
  return openFinding(deps, (f) => f.instanceId === instanceId, instanceId);
}

async function openFinding(deps: Deps, match: (f: { name: string | null; instanceId: string }) => boolean, what: string): Promise<string> {
  const found = (await deps.store.gpuFindings.listOpen()).find(match);
  if (!found) throw new Error(`no open finding for ${what}`);
  return found.id;
}

/** A click on an idle alert's button, through the dispatcher; returns what was answered. */
export function press(deps: Deps, userId: string, action: string, findingId: string, extra: object = {}) {
  return dispatchClick(deps, userId, action, { f: findingId, ...extra });
}

/** A click on Stop in the alert of this instance's open idle finding. */
export async function stopClick(deps: Deps, userId: string, instanceId: string) {
  return press(deps, userId, 'instance.stop', await findingOfInstance(deps, instanceId));
}
