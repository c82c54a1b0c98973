import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { cli, workDir } from '../../support/run-cli.js';
import { startServe, type ServeProcess } from '../../support/serve-process.js';
import { CONVERSATIONS, messageActivity } from '../../support/teams-activity.js';

/** A burnrate.yml whose team alerts in a Teams channel, on the demo data. */
function teamsConfig(): string {
  const path = join(workDir(), 'burnrate.yml');
  writeFileSync(
    path,
    `admins: [U0ADMIN]\nteams:\n  - id: ml\n    msteams: { channel: "${CONVERSATIONS.channel}" }\n    owners: [U0OWNER]\n    budget: { monthly: 1000 }\n`,
  );
  return path;
}

describe('burnrate serve with Teams', () => {
  let serve: ServeProcess | undefined;
  let fake: FakeBotConnector | undefined;
  afterEach(async () => {
    await serve?.stop();
    serve = undefined;
    await fake?.close();
    fake = undefined;
  });

  it('refuses to start when a team has a Teams channel but MICROSOFT_APP_ID is not set, and says what to do', async () => {
    const result = await cli(['serve', '--port', '0'], { env: { BURNRATE_CONFIG: teamsConfig() } });
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      'team ml has an msteams channel, but MICROSOFT_APP_ID is not set, so Teams requests could not be authenticated',
    );
    expect(result.err).toContain('BURNRATE_INSECURE_DEV=1');
    expect(result.out).not.toContain('health:');
  });

  it('refuses BURNRATE_INSECURE_DEV=1 on an address other machines can reach', async () => {
    const result = await cli(['serve', '--port', '0', '--host', '0.0.0.0'], {
      env: { BURNRATE_CONFIG: teamsConfig(), BURNRATE_INSECURE_DEV: '1' },
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain('BURNRATE_INSECURE_DEV=1 turns Teams authentication off, so burnrate will not listen on 0.0.0.0 with it');
  });

  it('names the missing variable when Teams is half configured', async () => {
    const result = await cli(['serve', '--port', '0'], {
      env: { MICROSOFT_APP_ID: '00000000-0000-4000-8000-0000000b0700', MICROSOFT_APP_TYPE: 'SingleTenant' },
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain('MICROSOFT_APP_ID is set but MICROSOFT_APP_PASSWORD is not');
  });

  it('with BURNRATE_INSECURE_DEV=1: warns loudly, and answers a message at POST /api/messages through the connector', async () => {
    fake = await FakeBotConnector.start();
    serve = await startServe({ BURNRATE_CONFIG: teamsConfig(), BURNRATE_INSECURE_DEV: '1' });
    expect(serve.out()).toContain(
      'WARNING: teams: BURNRATE_INSECURE_DEV=1 and no MICROSOFT_APP_ID: requests to /api/messages are NOT authenticated',
    );
    expect(serve.out()).toContain('teams: POST /api/messages WITHOUT authentication');
    const activity = messageActivity(fake.serviceUrl, 'personal', { aadObjectId: 'U0ADMIN', name: 'Admin' }, 'whoami');
    const res = await fetch(`http://127.0.0.1:${serve.port}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(activity),
    });
    expect(res.status).toBe(200);
    expect(fake.calls).toHaveLength(1);
    expect(JSON.stringify(FakeBotConnector.cardOf(fake.calls[0]!))).toContain('You are an **admin**');
  });

  it('with MICROSOFT_APP_ID set: says requests are authenticated and rejects one without a token', async () => {
    serve = await startServe({
      BURNRATE_CONFIG: teamsConfig(),
      MICROSOFT_APP_ID: '00000000-0000-4000-8000-0000000b0700',
      MICROSOFT_APP_PASSWORD: 'not-a-real-secret',
    });
    expect(serve.out()).toContain('teams: Bot Framework activities arrive at POST /api/messages on this server (authenticated)');
    expect(serve.out()).not.toContain('not-a-real-secret');
    const activity = messageActivity(
      'https://smba.trafficmanager.net/teams/',
      'personal',
      { aadObjectId: 'U0ADMIN', name: 'Admin' },
      'whoami',
    );
    const res = await fetch(`http://127.0.0.1:${serve.port}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(activity),
    });
    expect(res.status).toBe(401);
    expect(serve.err()).not.toContain('not-a-real-secret');
  });
});
