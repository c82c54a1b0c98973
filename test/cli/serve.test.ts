import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/free-port.js';
import { describe, expect, it } from 'vitest';
import { cli, workDir } from '../support/run-cli.js';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));

/** `npm start` as a user runs it: the compiled binary, a fresh folder, no config, then Ctrl-C. */
describe('burnrate serve (npm start)', () => {
  it('seeds the demo organisation, prints its alerts, answers health probes and stops cleanly on SIGINT', async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const cwd = workDir();
    const child = spawn(process.execPath, [BIN, 'serve'], {
      cwd,
      env: { ...process.env, PORT: String(port), METRICS_PORT: String(metricsPort), LOG_LEVEL: 'warn' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const deadline = Date.now() + 60_000;
    while (!out.includes('press Ctrl-C to stop')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start:\n${out}\n${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(out).toContain('embedded demo organisation');
    expect(out).toContain('(first load)');
    expect(out).toMatch(/── #llm-training ─+\n\S+ LLM Training is on track to spend \d+% of its \w+ \d{4} budget/);
    expect(out).toContain('scheduled: budget check daily at 08:00 Europe/Berlin for ml-research');
    // No chat platform configured: the console is on, on loopback, and says where.
    expect(out).toContain(`console: http://127.0.0.1:${port}/ — open it in a browser`);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>burnrate console</title>');

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    const readiness = await ready.json();
    expect(readiness).toEqual({
      ok: true,
      checks: { database: true, firstChecks: true, scheduler: true, delivery: true },
      // Delivery makes progress: no pass failing in a row, nothing overdue.
      delivery: expect.objectContaining({ ok: true, failedPassesInRow: 0 }),
      // When the first checks were done: until then /readyz answers 503.
      firstChecksAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      outbox: expect.objectContaining({ pending: 0, sending: 0, failed: 0, failing: 0 }),
      // One process on a SQLite file always runs the schedule.
      leader: true,
    });
    // Everything the first checks queued was delivered, and /metrics says the same as /readyz.
    expect(readiness.outbox.sent).toBeGreaterThan(0);
    // Not where Slack's events and Teams' activities arrive: on a listener of its own, on loopback.
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    expect(out).toContain(`metrics: http://127.0.0.1:${metricsPort}/metrics`);
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    expect(text).toContain(`burnrate_outbox_items{status="sent"} ${readiness.outbox.sent}`);
    expect(text).toContain('burnrate_outbox_items{status="failed"} 0');
    expect(text).toMatch(/burnrate_source_age_seconds\{source="demo"\} \d/);
    expect(text).toMatch(/burnrate_job_duration_seconds_count\{task="budget_check"\} 1/);
    expect((await fetch(`http://127.0.0.1:${port}/nope`)).status).toBe(404);

    // Each team's cost gauges name teams and money: only when burnrate.yml turns metrics.teamCosts on
    // (test/http/metrics-listener.test.ts checks them against the bill).
    expect(text).not.toContain('burnrate_team_');

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('stopping (SIGINT)');
    expect(err).toBe('');
  });

  it('refuses a port that is no port number before opening anything, and stops with exit 1 on a port already taken', async () => {
    const cwd = workDir();
    const bad = await cli(['serve', '--port', 'abc'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--port must be a port number from 0 to 65535, got "abc"');
    expect(existsSync(join(cwd, 'data'))).toBe(false);
    expect((await cli(['serve'], { cwd, env: { PORT: '70000' } })).err).toContain(
      'PORT must be a port number from 0 to 65535, got "70000"',
    );

    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const busy = await cli(['serve', '--port', String(port)], { cwd });
      expect(busy.code).toBe(1);
      expect(busy.err).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it('stops with exit 1 and what to fix on a host that is not on this machine, or a database file that is not one', async () => {
    const cwd = workDir();
    // 203.0.113.0/24 is documentation space: never an address of this machine.
    const host = await cli(['serve'], { cwd, env: { HOST: '203.0.113.7', PORT: '0', CONSOLE: 'off' } });
    expect(host.code).toBe(1);
    expect(host.err).toContain('cannot listen on 203.0.113.7: no such address on this machine');
    expect(host.err).toContain('Set HOST to one of its addresses');

    writeFileSync(join(cwd, 'notes.db'), 'not a database at all');
    const db = await cli(['serve'], { cwd, env: { BURNRATE_DB: 'notes.db', PORT: '0' } });
    expect(db.code).toBe(1);
    expect(db.err).toContain('file is not a database');
    expect(db.err).toContain('names a file that is not a burnrate database');
    expect(db.err).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('Ctrl-C while serve is still starting: it finishes starting, then stops cleanly', async () => {
    const start = (port: number) =>
      spawn(process.execPath, [BIN, 'serve'], { cwd: workDir(), env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn' } });
    const outputOf = (child: ReturnType<typeof start>) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      return () => out;
    };
    const exitOf = (child: ReturnType<typeof start>) =>
      new Promise<number | NodeJS.Signals | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));

    const patient = start(await freePort());
    const patientOut = outputOf(patient);
    const patientExit = exitOf(patient);
    // The first line is printed once the database is open, before the demo organisation is loaded.
    while (!patientOut().includes('database')) await new Promise((r) => setTimeout(r, 20));
    patient.kill('SIGINT');
    expect(await patientExit).toBe(0);
    expect(patientOut()).toContain('press Ctrl-C to stop');
    expect(patientOut()).toContain('stopping (SIGINT)');
  }, 90_000);

  it('refuses to put the console on a public address without a token, before opening anything', async () => {
    const cwd = workDir();
    const result = await cli(['serve'], { cwd, env: { HOST: '0.0.0.0', PORT: '0' } });
    expect(result.code).toBe(2);
    expect(result.err).toContain('the console would listen on 0.0.0.0, reachable from other machines, without a token');
    expect(result.err).toContain('Set CONSOLE_TOKEN');
    expect(result.out).toBe('');
  });
});
