import { BurnrateError } from '../domain/errors.js';
import type { InstanceActionPort, InstanceState, StopResult } from '../ports/instance-port.js';

/** Finds the port that can act on an instance (its provider and region); undefined when none knows it. */
export type PortLocator = (instanceId: string) => Promise<InstanceActionPort | undefined>;

/**
 * One instance action port over several: each instance goes to the port of its provider and
 * region (EC2 in us-east-1 and EC2 in eu-west-1 are different endpoints), as the inventory says.
 */
export class RoutedInstancePort implements InstanceActionPort {
  readonly provider = 'inventory';

  constructor(private readonly locate: PortLocator) {}

  async describe(ids: string[]): Promise<InstanceState[]> {
    const groups = new Map<InstanceActionPort, string[]>();
    for (const id of ids) {
      const port = await this.portOf(id);
      groups.set(port, [...(groups.get(port) ?? []), id]);
    }
    const found = new Map<string, InstanceState>();
    for (const [port, group] of groups) for (const state of await port.describe(group)) found.set(state.id, state);
    return ids.map((id) => found.get(id)!);
  }

  async stop(id: string, options: { dryRun: boolean; by?: string }): Promise<StopResult> {
    return (await this.portOf(id)).stop(id, options);
  }

  private async portOf(id: string): Promise<InstanceActionPort> {
    const port = await this.locate(id);
    if (!port)
      throw new BurnrateError(
        'burnrate_instance_unknown',
        `${id} is not in the GPU inventory, so burnrate does not know where to stop it.`,
        'Check that gpu.inventory lists the region the instance runs in, and that it still exists.',
        1,
      );
    return port;
  }
}
