import { UNOWNED_ID, UNOWNED_NAME } from '../domain/unowned.js';
import { ANOMALY_DEFAULTS } from './anomaly-defaults.js';
import { namedChannels } from './chat-channels.js';
import type { Config, TeamConfig } from './schema.js';

// The unowned instances' stand-in team is built from burnrate.yml (its `gpu.unowned` channels), so it
// is a configured team like the others: alerts address it the same way.

/** A stand-in team for the unowned instances: no owners (admins act on them), the default schedule. */
export function unownedTeam(config: Config): TeamConfig {
  const unowned = config.gpu.unowned;
  return {
    id: UNOWNED_ID,
    name: UNOWNED_NAME,
    match: [],
    timezone: 'UTC',
    owners: [],
    approvers: [],
    gpu: { mode: 'notify', autoStopAfterMinutes: 60, namespaces: [] },
    digest: 'off',
    // Spend of no team is no team's anomaly to answer.
    anomalies: { ...ANOMALY_DEFAULTS, enabled: false },
    // Only the platforms it names: a key present but undefined would read as a channel there.
    ...namedChannels(unowned),
  };
}
