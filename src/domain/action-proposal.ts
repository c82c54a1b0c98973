/** What an assistant may propose for one idle GPU instance: a person decides by clicking. */
export type ProposedAction = 'stop' | 'keep';

/**
 * A proposal made through the MCP server on behalf of a user: posted to the instance's team as its
 * idle alert, with the alert's buttons. It changes nothing by itself; its outcome is what people
 * clicked on that finding afterwards (the audit log).
 */
export interface ActionProposal {
  id: string;
  action: ProposedAction;
  /** The idle finding the alert's buttons act on. */
  findingId: string;
  instanceId: string;
  team: string | null;
  /** The user the assistant acts for. */
  byUser: string;
  /** Why, in the assistant's words (bounded, shown as plain text). */
  reason: string | null;
  at: Date;
}
