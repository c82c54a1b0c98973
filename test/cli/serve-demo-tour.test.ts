import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { startServe, type ServeProcess } from '../support/serve-process.js';
import { ALICE } from '../support/demo-org.js';

/**
 * What a first visit to `npm start` finds, through the real binary, its HTTP server and its
 * database: last month's review already in every team's channel (posted once, not again on a
 * restart), and a console that opens where the messages are, with the other channels marked.
 * Serve starts on Wednesday 18 Nov 2026, a day no team's review is due.
 */
const TEAMS = demoConfig().teams.map((t) => ({ id: t.id, name: t.name ?? t.id, owner: t.owners[0]! }));
const REVIEW = 'cost review of October 2026';

interface Row {
  id: number;
  channel: string;
  parent_id: number | null;
  private_to: string | null;
  message: string;
}

function readMessages(cwd: string): Row[] {
  const db = new Database(join(cwd, 'data', 'burnrate.db'), { readonly: true });
  try {
    return db.prepare('SELECT id, channel, parent_id, private_to, message FROM console_messages ORDER BY id').all() as Row[];
  } finally {
    db.close();
  }
}

/** Waits until the delivery has taken everything queued: the console then holds all the start posted. */
async function delivered(cwd: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const db = new Database(join(cwd, 'data', 'burnrate.db'), { readonly: true });
    const { waiting } = db.prepare("SELECT COUNT(*) AS waiting FROM outbox WHERE status IN ('pending', 'sending')").get() as {
      waiting: number;
    };
    db.close();
    if (waiting === 0) return;
    if (Date.now() > deadline) throw new Error(`${waiting} outbox item(s) still waiting`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The channels a review thread of October was started in, once per thread. */
const reviewRoots = (rows: Row[]) =>
  rows
    .filter((r) => r.parent_id === null && (JSON.parse(r.message) as { summary: string }).summary.includes(`: ${REVIEW}`))
    .map((r) => r.channel);

describe('npm start on the demo: what a first visit finds', () => {
  let serve: ServeProcess;

  beforeAll(async () => {
    serve = await startServe({ BURNRATE_NOW: '2026-11-18T06:00:00Z' });
    await delivered(serve.cwd);
  }, 90_000);

  afterAll(async () => {
    if (serve.child.exitCode === null) expect(await serve.stop()).toBe(0);
  });

  it('opens the console on the channel with the most messages, and says the newest message of every channel', async () => {
    const rows = readMessages(serve.cwd).filter((r) => r.private_to === null || r.private_to === ALICE);
    const count = (channel: string) => rows.filter((r) => r.channel === channel).length;
    const newest = (channel: string) => Math.max(0, ...rows.filter((r) => r.channel === channel).map((r) => r.id));
    // Ties go to the channel listed first: the teams in the configuration's order, then _unowned.
    const listed = [...TEAMS.map((t) => t.id), '_unowned'];
    const busiest = listed.reduce((best, channel) => (count(channel) > count(best) ? channel : best));
    expect(count(busiest)).toBeGreaterThan(0);

    const html = await (await fetch(`http://127.0.0.1:${serve.port}/`)).text();
    expect(/<body data-channel="([^"]+)"/.exec(html)?.[1]).toBe(busiest);
    expect(html).toContain(`<h1 id="channel-title"># ${busiest}</h1>`);
    const latest = Object.fromEntries(
      [...html.matchAll(/data-channel="([^"]+)"[^>]* data-latest="(\d+)"/g)].map((m) => [m[1], Number(m[2])]),
    );
    expect(latest).toEqual(Object.fromEntries([...listed, '@home', '@dm'].map((c) => [c, newest(c)])));

    // The stream the page re-fetches carries the same figures, for the user it is asked for.
    const stream = (await (await fetch(`http://127.0.0.1:${serve.port}/console/messages?channel=vision&as=${ALICE}`)).json()) as {
      latest: Record<string, number>;
    };
    expect(stream.latest).toEqual(latest);
  });

  it("shows the demo's runaway in the vision channel at start: the anomaly alert naming the search", async () => {
    const vision = TEAMS.find((t) => t.id === 'vision')!;
    const page = (await (await fetch(`http://127.0.0.1:${serve.port}/console/messages?channel=vision&as=${vision.owner}`)).json()) as {
      html: string;
    };
    expect(page.html).toContain(`${vision.name}: spend anomaly`);
    expect(page.html).toContain('cv-hpo-sweep-17');
  });

  it("posts last month's review with its chart in every team's channel at start, whatever the day, and once", async () => {
    expect(serve.out()).toContain(`monthly review: last month's review posted for ${TEAMS.map((t) => t.id).join(', ')}`);
    for (const team of TEAMS) {
      const page = (await (await fetch(`http://127.0.0.1:${serve.port}/console/messages?channel=${team.id}&as=${team.owner}`)).json()) as {
        html: string;
      };
      expect(page.html, team.id).toContain(`${team.name}: ${REVIEW}`);
      expect(page.html, team.id).toMatch(
        new RegExp(`<img src="data:image/png;base64,iVBORw0KGgo[A-Za-z0-9+/]+=*" alt="Stacked bar chart of ${team.name}`),
      );
    }
    expect(reviewRoots(readMessages(serve.cwd)).sort()).toEqual(TEAMS.map((t) => t.id).sort());

    // Started again the next day on the same database: the reviews are there, none is posted again.
    const before = readMessages(serve.cwd).length;
    expect(await serve.stop()).toBe(0);
    const again = await startServe({ BURNRATE_NOW: '2026-11-19T06:00:00Z' }, 60_000, serve.cwd);
    try {
      await delivered(again.cwd);
      expect(again.out()).not.toContain("last month's review posted");
      const rows = readMessages(again.cwd);
      expect(reviewRoots(rows).sort()).toEqual(TEAMS.map((t) => t.id).sort());
      expect(rows.slice(before).filter((r) => JSON.parse(r.message).summary.includes('cost review'))).toEqual([]);
    } finally {
      expect(await again.stop()).toBe(0);
      expect(again.err()).toBe('');
    }
  }, 90_000);
});
