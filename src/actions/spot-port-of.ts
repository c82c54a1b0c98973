import type { Deps } from '../deps.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import { BurnrateError } from '../domain/errors.js';
import { gpuDepsOf } from '../snapshots/gpu-snapshot.js';
import { currentInstance } from '../snapshots/current-recommendations.js';
import type { SpotMigration } from '../domain/spot-migration.js';
import type { SpotMigrationPort, SpotPorts } from '../ports/spot-port.js';

/** The installation's spot ports, or a clear error where no provider supports spot migrations. */
function spotPortsOf(deps: Deps): SpotPorts {
  const ports = gpuDepsOf(deps).spot;
  if (!ports)
    throw new BurnrateError(
      'burnrate_spot_unconfigured',
      'Spot migrations are not available for this installation.',
      'They need a GPU source whose provider supports launch templates (the demo, or AWS).',
      1,
    );
  return ports;
}

/** The port that changes this instance's launch template (its source and region); undefined where none can. */
export async function spotPortOfInstance(deps: Deps, instance: GpuInstance): Promise<SpotMigrationPort | undefined> {
  return spotPortsOf(deps).forInstance(instance);
}

/**
 * The port a migration was made through, by the place recorded with it; a migration recorded
 * before places were goes by its instance, if the inventory still has it.
 */
export async function spotPortOfMigration(deps: Deps, migration: SpotMigration): Promise<SpotMigrationPort> {
  const ports = spotPortsOf(deps);
  const instance = migration.place ? undefined : await currentInstance(deps, migration.instanceId);
  const port = migration.place ? await ports.at(migration.place) : instance && (await ports.forInstance(instance));
  if (!port)
    throw new BurnrateError(
      'burnrate_spot_unreachable',
      `burnrate cannot reach the launch template ${migration.launchTemplate} (${migration.place ?? `of ${migration.instanceId}`}) any more, so nothing was changed.`,
      'Check that gpu.inventory still lists the region it lives in, or change its default version in the cloud console.',
      1,
    );
  return port;
}
