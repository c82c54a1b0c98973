import type { ActionProposal, ProposedAction } from '../domain/action-proposal.js';
import type { Session } from './session.js';

export interface ActionProposalStore {
  add(proposal: ActionProposal): Promise<void>;
  get(id: string): Promise<ActionProposal | null>;
  /** The proposals made on one subject (an idle finding, an instance), oldest first. */
  forSubject(subject: string): Promise<ActionProposal[]>;
}

type ProposalRow = Omit<ActionProposal, 'at' | 'action'> & { action: string; at: string };

const COLUMNS = 'id, action, subject, instance_id AS "instanceId", team, by_user AS "byUser", reason, at';

const proposalOf = (row: ProposalRow): ActionProposal => ({ ...row, action: row.action as ProposedAction, at: new Date(row.at) });

/** Proposals assistants made, one row each: what the proposal id names when its outcome is asked for. */
export class SqlActionProposalStore implements ActionProposalStore {
  constructor(private readonly db: Session) {}

  async add(p: ActionProposal): Promise<void> {
    await this.db.run(
      'INSERT INTO action_proposals (id, action, subject, instance_id, team, by_user, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [p.id, p.action, p.subject, p.instanceId, p.team, p.byUser, p.reason, p.at.toISOString()],
    );
  }

  async get(id: string): Promise<ActionProposal | null> {
    const row = await this.db.one<ProposalRow>(`SELECT ${COLUMNS} FROM action_proposals WHERE id = ?`, [id]);
    return row ? proposalOf(row) : null;
  }

  async forSubject(subject: string): Promise<ActionProposal[]> {
    const rows = await this.db.rows<ProposalRow>(
      `SELECT ${COLUMNS} FROM action_proposals WHERE subject = ? ORDER BY at, ${this.db.dialect.bytes('id')}`,
      [subject],
    );
    return rows.map(proposalOf);
  }
}
