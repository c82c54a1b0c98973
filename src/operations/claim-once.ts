import type { Deps } from '../deps.js';
import type { InstanceActionRecord } from '../domain/instance-action.js';
/**
 * A claim made but not finished after this long is taken to have died with its process: the next
 * click takes it over (stopping and changing a launch template are idempotent, so doing it twice is safe).
 */
export const STALE_CLAIM_MS = 10 * 60_000;

/** How one kind of claim is kept: the instance_actions row of a stop, the state of a spot migration. */
export interface ClaimTable<R, E = never> {
  /** The claim already made, if any. */
  earlier: R | null;
  /** Whether a claim is still unfinished (someone is acting on it). */
  unfinished(record: R): boolean;
  /**
   * Takes over an unfinished claim made before `staleBefore`: `released` (it is gone, claim
   * afresh), `resumed` (this caller now holds it) or null (it is not stale: a duplicate).
   */
  takeOver(record: R, staleBefore: Date): Promise<'released' | 'resumed' | null>;
  /** What must hold before claiming; a value here ends the attempt without a claim (busy again, approvals missing). */
  before?(): Promise<E | null>;
  /** Claims it; of concurrent callers exactly one gets `first`. */
  claim(): Promise<{ first: boolean; record: R }>;
}

export type ClaimOutcome<R, E = never> =
  | { kind: 'claimed'; resumed: boolean }
  | { kind: 'duplicate'; record: R; lostRace: boolean }
  | { kind: 'ended'; reason: E };

/**
 * The once-only protocol of the actions that change the cloud (Stop, Stop sweep, spot approval):
 *   1. an earlier finished claim, or an unfinished one younger than STALE_CLAIM_MS, is a duplicate
 *   2. a stale unfinished one is taken over
 *   3. the precondition, then the claim itself BEFORE acting: of concurrent attempts only one acts
 * The caller acts, then completes or releases the claim.
 */
export async function claimOnce<R, E = never>(now: Date, table: ClaimTable<R, E>): Promise<ClaimOutcome<R, E>> {
  const { earlier } = table;
  if (earlier) {
    const taken = table.unfinished(earlier) ? await table.takeOver(earlier, new Date(now.getTime() - STALE_CLAIM_MS)) : null;
    if (taken === 'resumed') return { kind: 'claimed', resumed: true };
    if (taken === null) return { kind: 'duplicate', record: earlier, lostRace: false };
  }
  const reason = table.before ? await table.before() : null;
  if (reason !== null) return { kind: 'ended', reason };
  const { first, record } = await table.claim();
  return first ? { kind: 'claimed', resumed: false } : { kind: 'duplicate', record, lostRace: true };
}

/**
 * claimOnce on the instance_actions row of one action on one finding: a claim left unfinished for
 * over STALE_CLAIM_MS is released and claimed afresh (stopping, resuming are idempotent).
 */
export async function claimInstanceAction<E = never>(
  deps: Pick<Deps, 'store' | 'clock'>,
  finding: { id: string; instanceId: string },
  action: string,
  byUser: string,
  before?: () => Promise<E | null>,
): Promise<ClaimOutcome<InstanceActionRecord, E>> {
  const actions = deps.store.instanceActions;
  return claimOnce<InstanceActionRecord, E>(deps.clock(), {
    earlier: await actions.get(finding.id, action),
    unfinished: (record) => record.outcome === null,
    takeOver: async (record, staleBefore) => (record.at < staleBefore ? (await actions.release(finding.id, action), 'released') : null),
    ...(before ? { before } : {}),
    claim: () => actions.claim({ findingId: finding.id, action, instanceId: finding.instanceId, byUser, at: deps.clock() }),
  });
}
