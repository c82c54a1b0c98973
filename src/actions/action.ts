import type { ActionInteraction } from '../ports/interaction.js';
import type { Deps } from '../deps.js';

/** A button's handler. Each declares the cloud permissions it needs, so the IAM docs are generated. */
export interface ActionSpec {
  id: string;
  /** Cloud permissions the action uses (e.g. `ec2:StopInstances`); empty for bookkeeping actions. */
  permissions: readonly string[];
  run(deps: Deps, interaction: ActionInteraction): Promise<void>;
}
