import type { SpotMigrationPort, SpotPorts } from '../../src/ports/spot-port.js';

/** Spot ports that send every instance to one port (e.g. the demo's instances to a fake EC2 region). */
export function everyInstanceTo(port: SpotMigrationPort): SpotPorts {
  return { forInstance: async () => port, at: async (place) => (place === port.place ? port : undefined) };
}
