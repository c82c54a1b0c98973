import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { Leadership, LeadershipOptions } from '../leadership.js';

/** One lease for the whole schedule: at most one replica runs jobs. */
const SCHEDULER = 'scheduler';

/**
 * Takes the lease when it is free or has run out, or renews it when this replica holds it, in one
 * statement, judged by the database's clock (`now()`), never by a replica's own: replicas whose
 * clocks disagree still agree on who leads. No row back: another replica holds a live lease.
 */
const TAKE_OR_RENEW = `INSERT INTO scheduler_leader (name, owner, expires_at)
  VALUES ($1, $2, now() + make_interval(secs => $3))
  ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
  WHERE scheduler_leader.owner = excluded.owner OR scheduler_leader.expires_at <= now()
  RETURNING owner`;

/** Gives the lease up on a clean stop, so another replica leads at its next ask. */
const RELEASE = 'DELETE FROM scheduler_leader WHERE name = $1 AND owner = $2';

/**
 * Competes for the scheduler's lease, a row with an expiry on the database's clock. The leader
 * renews it every `intervalMs` (2 s); a follower asks as often and takes it over once it has gone
 * `leaseMs` (10 s) unrenewed, whatever stopped the renewals: a killed process, a frozen one (SIGSTOP,
 * a paused VM, a long GC; its connection stays open and answers keepalives, which is why an
 * advisory lock held by a session was not enough), or a cut to the database.
 *
 * The leader itself counts its lease from the moment it sent the renewal, on its monotonic clock,
 * and less a margin: it stops leading when that runs out even if no answer ever comes, so by the
 * time another replica may take over, it has already stood down. A frozen leader that wakes finds
 * its lease counted out before it can run a job, and `confirm()` asks the database before each.
 */
export function competeForLeadership(url: string, options: LeadershipOptions = {}): Leadership {
  const intervalMs = options.intervalMs ?? 2000;
  const leaseMs = options.leaseMs ?? intervalMs * 5;
  // Lost to a slow answer or a clock that runs a little fast: the leader stands down this much early.
  const marginMs = leaseMs / 5;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let client: pg.Client | null = null;
  let leader = false;
  let heldUntil = -Infinity;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let asking: Promise<void> | null = null;

  const setLeader = (value: boolean) => {
    if (leader === value) return;
    leader = value;
    options.onChange?.(value);
  };
  const leading = () => {
    if (leader && performance.now() >= heldUntil) setLeader(false);
    return leader && !stopped;
  };
  const drop = () => {
    const old = client;
    client = null;
    // Not awaited: on a cut connection, ending it can wait as long as the cut.
    old?.end().catch(() => {});
  };
  const connect = async (): Promise<pg.Client> => {
    const fresh = new pg.Client({
      connectionString: url,
      application_name: 'burnrate scheduler',
      // A renewal that hangs (the database cut off) fails in time for the next one to try afresh.
      query_timeout: leaseMs,
      connectionTimeoutMillis: leaseMs,
    });
    fresh.on('error', () => {
      if (client === fresh) drop();
    });
    await fresh.connect();
    return fresh;
  };
  const ask = async () => {
    try {
      client ??= await connect();
      if (stopped) return drop();
      const sentAt = performance.now();
      const { rows } = await client.query(TAKE_OR_RENEW, [SCHEDULER, owner, leaseMs / 1000]);
      if (rows.length === 1) heldUntil = sentAt + leaseMs - marginMs;
      setLeader(rows.length === 1 && performance.now() < heldUntil);
    } catch {
      drop();
      // Without an answer the lease is not known to be held; the count above may still run.
      leading();
    }
  };
  /** One question at a time: the round's and a job's `confirm()` share it. */
  const askOnce = () => (asking ??= ask().finally(() => (asking = null)));
  const round = async () => {
    await askOnce();
    if (!stopped) timer = setTimeout(() => void round(), intervalMs);
  };
  void round();

  return {
    isLeader: leading,
    confirm: async () => {
      if (!leading()) return false;
      await askOnce();
      return leading();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await asking?.catch(() => {});
      const wasLeader = leader;
      setLeader(false);
      const old = client;
      client = null;
      if (old && wasLeader) await old.query(RELEASE, [SCHEDULER, owner]).catch(() => {});
      await old?.end().catch(() => {});
    },
  };
}
