import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import type { Config } from '../../../src/config/schema.js';
import { CONVERSATIONS, type Person } from '../../support/teams-activity.js';

/** Demo people as Teams users: their Entra object ids are the ids burnrate.yml lists. */
export const ADMIN: Person = { aadObjectId: 'U0DEMOADMIN', name: 'Ada Admin' };
export const ALICE: Person = { aadObjectId: 'U0DEMOALICE', name: 'Alice Owner' };
export const CAROL: Person = { aadObjectId: 'U0DEMOCAROL', name: 'Carol Owner' };
export const STRANGER: Person = { aadObjectId: 'f0000000-0000-4000-8000-00000000dead', name: 'Sam Stranger' };

/** The demo organisation with Teams channels: llm-training's alerts go to the test channel. */
export function teamsDemoConfig(change: (config: Config) => void = () => {}): Config {
  const config = demoConfig();
  for (const team of config.teams)
    team.msteams = { channel: team.id === 'llm-training' ? CONVERSATIONS.channel : `19:${team.id}@thread.tacv2` };
  // ml-research's idle notebooks alert in the same channel, so one install serves both tests.
  const research = config.teams.find((t) => t.id === 'ml-research')!;
  research.msteams = { channel: CONVERSATIONS.channel };
  change(config);
  return config;
}
