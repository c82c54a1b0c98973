import type { Config, TeamConfig } from '../config/schema.js';

/**
 * Idle GPUs that no team owns (untagged, or a tag no team matches) still cost money, so they are
 * reported like a team's, to the channels `gpu.unowned` names and to the console. This id can
 * never be a team's: team ids start with a letter or digit.
 */
export const UNOWNED_ID = '_unowned';
export const UNOWNED_NAME = 'Unowned GPUs';

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
    ...(unowned?.slack ? { slack: unowned.slack } : {}),
    ...(unowned?.msteams ? { msteams: unowned.msteams } : {}),
  };
}
