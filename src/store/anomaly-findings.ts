import type { AnomalyAnswer, AnomalyFinding, TrackedAnomalyFinding } from '../domain/anomaly-finding.js';
import type { Session } from './session.js';
import { SqlTrackedFindings } from './tracked-findings.js';

interface BodyRow {
  body: string;
}

/** Spend anomalies, read back from their JSON bodies; the team's answer is kept in the body across runs. */
export class SqlAnomalyFindingStore extends SqlTrackedFindings<TrackedAnomalyFinding> {
  constructor(private readonly session: Session) {
    super(session, 'anomaly');
  }

  /** Every anomaly (open or resolved) seen on or after `since` (ISO time): answers to learn from, a month to review. */
  async seenSince(since: Date): Promise<TrackedAnomalyFinding[]> {
    return this.list('last_seen >= ?', [since.toISOString()]);
  }

  /** Records the team's answer once: the first wins, a second returns it with first false. Null: no such anomaly. */
  async answer(id: string, answer: AnomalyAnswer): Promise<{ answer: AnomalyAnswer; first: boolean } | null> {
    return this.session.transaction(async (tx) => {
      await tx.lock('burnrate record anomalyFindings');
      const row = await tx.one<BodyRow>(`SELECT body FROM check_findings WHERE family = 'anomaly' AND id = ? ${tx.dialect.forUpdate}`, [
        id,
      ]);
      if (!row) return null;
      const body = JSON.parse(row.body) as AnomalyFinding;
      if (body.answer) return { answer: body.answer, first: false };
      await tx.run("UPDATE check_findings SET body = ? WHERE family = 'anomaly' AND id = ?", [JSON.stringify({ ...body, answer }), id]);
      return { answer, first: true };
    });
  }
}
