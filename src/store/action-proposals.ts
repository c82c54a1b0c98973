import type { ActionProposal, ProposedAction } from '../domain/action-proposal.js';
import type { Session } from './session.js';

type ProposalRow = Omit<ActionProposal, 'at' | 'action'> & { action: string; at: string };

const COLUMNS = 'id, action, subject, instance_id AS "instanceId", team, by_user AS "byUser", reason, at';

const proposalOf = (row: ProposalRow): ActionProposal => ({ ...row, action: row.action as ProposedAction, at: new Date(row.at) });

/** Proposals assistants made, one row each: what the proposal id names when its outcome is asked for. */
export class SqlActionProposalStore {
  constructor(private readonly db: Session) {}

  /**
   * Records a proposal, unless the same action was already proposed on its subject: false then,
   * and nothing written (of two identical proposals at the same moment, exactly one is recorded).
   */
  async add(p: ActionProposal): Promise<boolean> {
    const added = await this.db.run(
      `INSERT INTO action_proposals (id, action, subject, instance_id, team, by_user, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (subject, action) DO NOTHING`,
      [p.id, p.action, p.subject, p.instanceId, p.team, p.byUser, p.reason, p.at.toISOString()],
    );
    return added === 1;
  }

  async get(id: string): Promise<ActionProposal | null> {
    const row = await this.db.one<ProposalRow>(`SELECT ${COLUMNS} FROM action_proposals WHERE id = ?`, [id]);
    return row ? proposalOf(row) : null;
  }

  /** The proposals made on one subject (an idle finding, an instance), oldest first. */
  async forSubject(subject: string): Promise<ActionProposal[]> {
    const rows = await this.db.rows<ProposalRow>(
      `SELECT ${COLUMNS} FROM action_proposals WHERE subject = ? ORDER BY at, ${this.db.dialect.bytes('id')}`,
      [subject],
    );
    return rows.map(proposalOf);
  }
}
