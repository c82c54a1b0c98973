import pg from 'pg';
import type { Leadership, LeadershipOptions } from '../leadership.js';

/** One lock for the whole schedule: at most one replica runs jobs. */
const SCHEDULER_LOCK = 'burnrate scheduler';

/**
 * Competes for the scheduler's advisory lock on a connection of its own (a pooled connection
 * would hand the session lock to whichever query borrowed it next). Postgres frees the lock when
 * that connection ends: at once when the leader's process dies on a reachable host; within the
 * TCP keepalive (about 25 s) when its host vanishes. Followers ask every `intervalMs` (5 s), so a
 * new leader is running within that of the old one's end. A leader whose connection fails stops
 * leading at once, before it knows whether another took over.
 */
export function competeForLeadership(url: string, options: LeadershipOptions = {}): Leadership {
  const intervalMs = options.intervalMs ?? 5000;
  let client: pg.Client | null = null;
  let leader = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const setLeader = (value: boolean) => {
    if (leader === value) return;
    leader = value;
    options.onChange?.(value);
  };
  const drop = () => {
    setLeader(false);
    const old = client;
    client = null;
    old?.end().catch(() => {});
  };
  const connect = async (): Promise<pg.Client> => {
    const fresh = new pg.Client({ connectionString: url, application_name: 'burnrate scheduler', keepAlive: true });
    fresh.on('error', drop);
    await fresh.connect();
    // The server notices a vanished leader host by keepalive, not only by a closed socket.
    await fresh.query('SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3');
    return fresh;
  };
  const round = async () => {
    try {
      client ??= await connect();
      // Stopped while connecting: the session ends here, and with it any claim on the lock.
      if (stopped) return drop();
      if (leader) await client.query('SELECT 1');
      else {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [SCHEDULER_LOCK]);
        setLeader(rows[0]?.locked === true);
      }
    } catch {
      drop();
    }
    if (!stopped) timer = setTimeout(() => void round(), intervalMs);
  };
  void round();

  return {
    isLeader: () => leader && !stopped,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      setLeader(false);
      const old = client;
      client = null;
      // Ending the session frees its advisory lock.
      await old?.end().catch(() => {});
    },
  };
}
