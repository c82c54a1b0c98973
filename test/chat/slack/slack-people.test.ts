/**
 * People by name and roles held by Slack user groups: the directory read through the real WebClient
 * (users.list, usergroups.list) from the fake Web API, and roles checked on commands sent through
 * real Bolt.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobTable, runJob } from '../../../src/jobs/job-table.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { testDeps } from '../../support/deps.js';
import { postSigned, slashCommandBody } from '../../support/slack-request.js';
import { startSlackServer, waitFor } from './slack-harness.js';

const BOB = 'U0BOB'; // in @ml-leads
const MALLORY = 'U0MALLORY'; // in no group
const OWNER = 'U0OWNER';

const config = {
  teams: [
    {
      id: 'ml',
      name: 'ML',
      slack: { channel: 'C0ML' },
      owners: [OWNER],
      approvers: ['@ml-leads'],
      budget: { monthly: 1000, thresholds: [80, 100], forecast: false },
    },
  ],
  admins: ['carol@example.com'],
};

type Harness = Awaited<ReturnType<typeof startSlackServer>>;

describe('Slack user groups and names', () => {
  let fake: FakeSlackApi;
  let harness: Harness | undefined;

  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['users.list', 'usergroups.list'] });
    fake.people.push(
      { id: BOB, name: 'bob', realName: 'Bob Builder', displayName: 'bob.b' },
      { id: MALLORY, name: 'mallory', realName: 'Mallory Mole' },
      { id: OWNER, name: 'olga', realName: 'Olga Owner' },
      { id: 'U0CAROL', name: 'carol', realName: 'Carol Admin', email: 'Carol@Example.com' },
      { id: 'U0GONE', name: 'gone', deleted: true },
    );
    fake.userGroups.push({ id: 'S0LEADS', handle: 'ml-leads', name: 'ML training leads', users: [BOB] });
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  async function start() {
    const { deps } = testDeps(config);
    harness = await startSlackServer(deps, fake);
    // The people job, as serve runs it first: names and groups before any check or click.
    await runJob(jobTable(deps).find((job) => job.id === 'people directory')!, []);
    return { deps, h: harness };
  }

  async function command(h: Harness, text: string, user: string): Promise<string> {
    const id = `${user}-${text.replace(/\W+/g, '-')}-${fake.responses.length}`;
    const res = await postSigned(h.url, slashCommandBody({ text, user_id: user, response_url: fake.responseUrl(id) }));
    expect(res.status).toBe(200);
    await waitFor(() => fake.responses.some((r) => r.id === id), `an answer to ${text}`);
    return JSON.stringify(fake.responses.find((r) => r.id === id)!.body);
  }

  it('reads every page of people, with their names and emails, and the groups with their members', async () => {
    const { deps } = await start();
    const people = deps.chat[0]!.people!;
    expect(fake.callsOf('users.list').length).toBe(3); // 5 people, 2 per page
    expect(String(fake.callsOf('usergroups.list')[0]!.args.include_users)).toBe('true');
    expect(people.nameOf(BOB)).toBe('bob.b'); // the display name first, as Slack shows people
    expect(people.nameOf(MALLORY)).toBe('Mallory Mole');
    expect(people.nameOf('U0GONE')).toBeUndefined();
    expect(people.userOfEmail('carol@example.com')).toBe('U0CAROL');
    expect(people.group('@ml-leads')).toMatchObject({ id: 'S0LEADS', members: [BOB] });
    expect(people.group('S0LEADS')?.handle).toBe('ml-leads');
  });

  it('lets a member of the approvers group change the budget and refuses someone outside it', async () => {
    const { deps, h } = await start();
    expect(await command(h, 'budget set ml 2k', BOB)).toContain('The monthly budget of *ml* is now *$2,000.00*');
    expect(await command(h, 'budget set ml 3k', MALLORY)).toContain('Only approvers of ml can change its budget');
    await h.settled();
    const audit = (await deps.store.audit.list()).filter((a) => a.action === 'budget set');
    expect(audit.map((a) => [a.userId, a.result])).toEqual(
      expect.arrayContaining([
        [BOB, 'ok'],
        [MALLORY, 'refused'],
      ]),
    );
  });

  it('says in whoami where each role comes from: the user id, a group, an email', async () => {
    const { h } = await start();
    const bob = await command(h, 'whoami', BOB);
    expect(bob).toContain('@ml-leads');
    expect(bob).toContain('approver');
    const carol = await command(h, 'whoami', 'U0CAROL');
    expect(carol).toContain('You are an *admin* (through carol@example.com)');
    const owner = await command(h, 'whoami', OWNER);
    expect(owner).toContain('your user id');
  });

  it('keeps the groups it read when Slack fails later, so roles do not vanish in an outage', async () => {
    const { deps, h } = await start();
    fake.failNext('usergroups.list', { status: 503 });
    fake.failNext('users.list', { error: 'missing_scope' });
    await deps.chat[0]!.people!.refresh!();
    expect(await command(h, 'budget set ml 2k', BOB)).toContain('is now');
    expect(deps.chat[0]!.people!.nameOf(BOB)).toBe('bob.b');
  });
});
