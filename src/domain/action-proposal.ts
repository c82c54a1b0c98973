/** What an assistant may propose for one GPU instance: stop or keep an idle one, move one to spot; a person decides by clicking. */
export type ProposedAction = 'stop' | 'keep' | 'spot';

/**
 * A proposal made through the MCP server on behalf of a user: posted to the instance's team as its
 * idle alert (stop, keep) or its spot recommendation (spot), with their buttons. It changes nothing
 * by itself; its outcome is what people clicked afterwards (the audit log).
 */
export interface ActionProposal {
  id: string;
  action: ProposedAction;
  /** What the buttons act on, as their audit rows name it: the idle finding's id (stop, keep), the instance's id (spot). */
  subject: string;
  instanceId: string;
  team: string | null;
  /** The user the assistant acts for. */
  byUser: string;
  /** Why, in the assistant's words (bounded, shown as plain text). */
  reason: string | null;
  at: Date;
}

/** The audit detail of a click on a proposal's own button (Dismiss): several proposals (stop, keep) can share one subject. */
export const proposalDetail = (id: string) => `proposal ${id}`;
