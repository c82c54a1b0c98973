/**
 * Entra groups holding roles in Teams: the groups read from the fake Microsoft Graph through the
 * real GraphClient (client-credentials token, paged transitiveMembers), and roles checked on real
 * button clicks and commands that the real CloudAdapter takes from the fake connector.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daysOf } from '../../../src/domain/period.js';
import { jobTable, runJob } from '../../../src/jobs/job-table.js';
import { runBudgetCheck } from '../../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import type { Deps } from '../../../src/deps.js';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { FakeGraph } from '../../fakes/fake-graph.js';
import { spendRow, testDeps } from '../../support/deps.js';
import { cardActionActivity, CONVERSATIONS, installActivity, messageActivity, type Person } from '../../support/teams-activity.js';
import { buttonOf, cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { mlTeam } from '../../support/ml-team.js';

const person = (n: string, name: string): Person => ({ aadObjectId: `5b8a0c1e-0000-4000-8000-0000000${n}`, name });
const OWNER = person('00001', 'Olive Owner');
const BOB = person('00002', 'Bob Builder'); // in @ml-leads through the nested gpu-oncall group
const ERIN = person('00003', 'Erin Engineer');
const FRANK = person('00004', 'Frank Fixer');
const GINA = person('00005', 'Gina GPU');
const MALLORY = person('00006', 'Mallory Mole'); // in no group
const ADA = person('00007', 'Ada Admin'); // in the admins group

const LEADS_ID = '9a0f0000-0000-4000-8000-00000000a001';
const ONCALL_ID = '9a0f0000-0000-4000-8000-00000000a002';
const ADMINS_ID = '9a0f0000-0000-4000-8000-00000000a003';

const config = {
  teams: [mlTeam({ msteams: { channel: CONVERSATIONS.channel }, owners: [OWNER.aadObjectId], approvers: ['@ml-leads'] })],
  admins: [ADMINS_ID],
};

describe('Entra groups as role holders in Teams, read through Microsoft Graph', () => {
  const bed = useTeamsTestbed();
  let graph: FakeGraph;
  let logged: string[];

  beforeEach(async () => {
    graph = await FakeGraph.start();
    const user = (p: Person) => ({
      id: p.aadObjectId,
      displayName: p.name,
      mail: `${p.name.split(' ')[0]!.toLowerCase()}@example.com`,
      userPrincipalName: `${p.name.split(' ')[0]!.toLowerCase()}@example.onmicrosoft.com`,
    });
    graph.users.push(...[OWNER, BOB, ERIN, FRANK, GINA, MALLORY, ADA].map(user));
    graph.groups.push(
      {
        id: LEADS_ID,
        displayName: 'ML training leads',
        mailNickname: 'ml-leads',
        members: [ERIN.aadObjectId, FRANK.aadObjectId, ONCALL_ID],
      },
      { id: ONCALL_ID, displayName: 'GPU on-call', mailNickname: 'gpu-oncall', members: [BOB.aadObjectId, GINA.aadObjectId] },
      { id: ADMINS_ID, displayName: 'Platform admins', mailNickname: 'platform-admins', members: [ADA.aadObjectId] },
    );
    graph.pageSize = 2;
  });
  afterEach(async () => {
    graph.assertDone();
    await graph.close();
  });

  async function start() {
    const t = testDeps(config);
    logged = [];
    t.deps.log = pino(
      { level: 'warn' },
      new Writable({
        write(chunk, _encoding, done) {
          logged.push(String(chunk));
          done();
        },
      }),
    );
    const entries = () => [...t.deps.config.admins, ...t.deps.config.teams.flatMap((team) => [...team.owners, ...team.approvers])];
    const h = await bed.start(t.deps, {
      people: {
        roleEntries: entries,
        graph: {
          graphUrl: graph.origin,
          entra: graph.entraOptions(),
          app: { appId: graph.app.clientId, tenantId: graph.app.tenantId, credential: { kind: 'secret', secret: graph.app.clientSecret } },
        },
      },
    });
    expect((await h.send(installActivity(bed.fake.serviceUrl, OWNER))).status).toBe(200);
    await refreshPeople(t.deps);
    return { ...t, h };
  }

  /** The people job, as serve runs it first and then daily. */
  async function refreshPeople(deps: Deps) {
    await runJob(jobTable(deps).find((job) => job.id === 'people directory')!, []);
  }

  /** Crosses 50% of the budget (55 a day for 11 days) and delivers the alert card. */
  async function alerted(deps: Deps, h: Awaited<ReturnType<typeof start>>['h']) {
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: daysOf({ start: '2026-11-01', end: '2026-11-11' }).map((d) => spendRow('ml', d, 55)),
        dataThrough: '2026-11-11T00:00:00Z',
      },
    ]);
    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    const post = bed.fake.calls.find((c) => c.op === 'send')!;
    const card = FakeBotConnector.cardOf(post);
    return async (who: Person) => {
      const button = buttonOf(card, 'budget.ack');
      const res = await h.send(cardActionActivity(bed.fake.serviceUrl, who, post.id, button.verb, button.value));
      expect(res.status).toBe(200);
      return res.body as { type: string; value: any };
    };
  }

  it('resolves @mailNickname and object-id entries, reads every page of transitive members, and treats a 404 id as a person', async () => {
    const { deps } = await start();
    const people = deps.chat[0]!.people!;
    // Nested: gpu-oncall's members are ml-leads' members too.
    expect([...people.group('@ml-leads')!.members].sort()).toEqual([BOB, ERIN, FRANK, GINA].map((p) => p.aadObjectId).sort());
    expect(people.group('@ml-leads')).toMatchObject({ id: LEADS_ID, handle: 'ml-leads', name: 'ML training leads' });
    expect(people.group(ADMINS_ID)?.members).toEqual([ADA.aadObjectId]);
    // A group has no 1:1 chat: digests and failure notices for the admins group go to nobody by that id.
    expect(deps.chat[0]!.addressOfUser!(ADMINS_ID)).toBeNull();
    expect(deps.chat[0]!.addressOfUser!(OWNER.aadObjectId)).toBe(`person:${OWNER.aadObjectId}`);
    // The owner's object id is no group (Graph said 404): the owner holds the role by that id alone.
    expect(people.group(OWNER.aadObjectId)).toBeUndefined();
    // Four members two a page: the nextLink was followed once.
    const pages = graph.requests.filter((r) => r.path === `/v1.0/groups/${LEADS_ID}/transitiveMembers/microsoft.graph.user`);
    expect(pages.map((r) => r.query.$skiptoken ?? null)).toEqual([null, '2']);
    expect(pages[0]!.query.$select).toBe('id,displayName,mail,userPrincipalName');
    expect(graph.requests.find((r) => r.path === '/v1.0/groups')?.query.$filter).toBe("mailNickname eq 'ml-leads'");
    expect(graph.requests.find((r) => r.path === `/v1.0/groups/${OWNER.aadObjectId}`)?.status).toBe(404);
    // One client-credentials token for the app's tenant, asked for Graph's .default scope.
    expect(graph.tokenRequests).toEqual([
      { tenant: graph.app.tenantId, clientId: graph.app.clientId, scope: `${graph.origin}/.default`, ok: true },
    ]);
    // Names of group members come from Graph, and so do their emails.
    expect(people.nameOf(GINA.aadObjectId)).toBe('Gina GPU');
    expect(people.userOfEmail('gina@example.com')).toBe(GINA.aadObjectId);
  });

  it('lets a member of the approvers group acknowledge by a real click, and refuses someone outside it', async () => {
    const { deps, h } = await start();
    const click = await alerted(deps, h);
    const refused = await click(MALLORY);
    expect(refused.value).toContain('Only owners and approvers of ml can acknowledge its alerts.');
    const done = await click(BOB);
    expect(done.type).toBe('application/vnd.microsoft.card.adaptive');
    expect(cardText(done.value)).toContain('Acknowledged 2026-11-21 09:00 UTC by <at>Bob Builder</at>'); // named as Graph lists him
    expect((await deps.store.audit.list()).map((a) => [a.userId, a.action, a.result]).reverse()).toEqual([
      [MALLORY.aadObjectId, 'budget.ack', 'refused'],
      [BOB.aadObjectId, 'budget.ack', 'ok'],
    ]);
  });

  it('says in whoami that a role comes from an Entra group', async () => {
    const { h } = await start();
    await h.send(messageActivity(bed.fake.serviceUrl, 'personal', ADA, 'whoami'));
    await h.send(messageActivity(bed.fake.serviceUrl, 'personal', BOB, 'whoami'));
    const [ada, bob] = bed.fake.calls.map((c) => cardText(FakeBotConnector.cardOf(c)));
    expect(ada).toContain(`You are an **admin** (through group Platform admins (${ADMINS_ID}))`);
    expect(bob).toContain('@ml-leads');
    expect(bob).toContain('approver');
  });

  it('keeps the last good membership when Graph fails later, and logs why without secrets', async () => {
    const { deps, h } = await start();
    graph.failNext({ status: 503 }, 1);
    graph.consented = false; // the rest answer 403, as after the permission was revoked
    await refreshPeople(deps);
    expect(deps.chat[0]!.people!.group('@ml-leads')?.members).toContain(BOB.aadObjectId);
    const click = await alerted(deps, h);
    expect((await click(BOB)).type).toBe('application/vnd.microsoft.card.adaptive');
    const warning = logged.find((line) => line.includes('Entra groups not readable'))!;
    expect(warning).toContain('serviceNotAvailable');
    expect(warning).not.toContain(graph.app.clientSecret);
    expect(logged.join('\n')).not.toMatch(/Bearer|access_token/);
  });

  it('waits out a throttle (429 with Retry-After) and reads the group', async () => {
    const { deps } = await start();
    const before = graph.requests.length;
    graph.failNext({ status: 429, retryAfter: 0 });
    await refreshPeople(deps);
    expect(graph.requests[before]!.status).toBe(429);
    expect(deps.chat[0]!.people!.group('@ml-leads')?.members).toHaveLength(4);
  });

  it('forgets a group Graph no longer has, so its former members lose the role', async () => {
    const { deps } = await start();
    graph.groups.splice(
      graph.groups.findIndex((g) => g.id === LEADS_ID),
      1,
    );
    await refreshPeople(deps);
    expect(deps.chat[0]!.people!.group('@ml-leads')).toBeUndefined();
  });
});
