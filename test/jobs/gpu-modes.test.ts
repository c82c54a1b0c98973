import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/schema.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { AUTO_STOP_USER } from '../../src/checks/idle/definition/auto-stop.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import type { ActionsBlock } from '../../templates/message.js';
import { ALICE, BOB, CAROL, STRANGER, findingOf, gpuDemo, press } from '../support/gpu-demo.js';
import { firstSectionWords } from '../support/first-section.js';

const research =
  (mode: 'approve' | 'auto', enabled = true) =>
  (config: Config) => {
    const team = config.teams.find((t) => t.id === 'ml-research')!;
    team.gpu = { ...team.gpu, mode, autoStopAfterMinutes: 30 } as typeof team.gpu;
    config.actions = { enabled };
  };

const stateOf = async (port: { describe(ids: string[]): Promise<{ state: string }[]> }, id: string) =>
  (await port.describe([id]))[0]!.state;

describe('gpu.mode approve', () => {
  it('labels the button "Approve stop" and lets only approvers (and admins) stop', async () => {
    const { deps, chat, port } = gpuDemo(research('approve'));
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    const alert = chat.posted.find((p) => p.address === '#ml-research')!.message;
    const stop = alert.blocks.filter((b): b is ActionsBlock => b.type === 'actions')[0]!.buttons[0]!;
    expect(stop).toMatchObject({ action: 'instance.stop', label: 'Approve stop', style: 'danger' });

    const alice = await findingOf(deps, 'alice-notebook');
    const owner = await press(deps, ALICE, 'instance.stop', alice);
    expect(owner.text()).toContain('Only approvers of ml-research can stop alice-notebook.');
    const { instanceId } = (await deps.store.gpuFindings.get(alice))!;
    expect(await stateOf(port, instanceId)).toBe('running');

    const approver = await press(deps, BOB, 'instance.stop', alice);
    expect(approver.privates).toHaveLength(0);
    expect(renderPlainText(approver.updates[0]!)).toContain(`Stopped by ${BOB}`);
    expect(await stateOf(port, instanceId)).toBe('stopped');
    const audit = (await deps.store.audit.list()).filter((e) => e.action === 'instance.stop').sort((a, b) => a.id - b.id);
    expect(audit.map((e) => `${e.userId} ${e.result}`)).toEqual([`${ALICE} refused`, `${BOB} ok`]);
    expect(audit[0]!.detail).toContain('not an approver');
  });
});

describe('gpu.mode auto', () => {
  it('announces the automatic stop, stops after the grace period unless kept, once, and says so in the thread', async () => {
    const { deps, chat, port, setNow } = gpuDemo(research('auto'));
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    const alert = renderPlainText(chat.posted.find((p) => p.address === '#ml-research')!.message);
    expect(alert).toContain('Stops automatically at 2026-11-18 07:30 CET unless someone clicks Keep.');
    const alice = await findingOf(deps, 'alice-notebook');
    const shared = await findingOf(deps, 'research-shared-notebook');
    const legacy = await findingOf(deps, 'research-legacy-v100');
    await press(deps, ALICE, 'instance.keep:4h', alice, { for: '4h' });

    // Within the grace period nothing happens.
    setNow('2026-11-18T06:15:00Z');
    await runGpuCheck(deps);
    const ids = async (id: string) => (await deps.store.gpuFindings.get(id))!.instanceId;
    expect(await stateOf(port, await ids(shared))).toBe('running');

    // After it: the unanswered ones are stopped, the kept one is not; other teams (notify) are untouched.
    setNow('2026-11-18T06:31:00Z');
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    expect(await stateOf(port, await ids(shared))).toBe('stopped');
    expect(await stateOf(port, await ids(legacy))).toBe('stopped');
    expect(await stateOf(port, await ids(alice))).toBe('running');
    expect(await stateOf(port, await ids(await findingOf(deps, 'llm-pretrain-a3-0')))).toBe('running');
    const reply = chat.posted.find(
      (p) => p.op === 'reply' && p.address === '#ml-research' && renderPlainText(p.message).includes('research-shared-notebook'),
    )!;
    expect(renderPlainText(reply.message)).toMatch(
      /^Stopped research-shared-notebook \(.+\) automatically: nobody kept it running within 30 min of the alert, saving \$[\d,.]+ per day\./,
    );
    const update = chat.posted.find((p) => p.op === 'update' && p.address === '#ml-research')!;
    expect(update.ref).toBe(reply.ref);
    expect(renderPlainText(update.message)).toContain(`Stopped by ${AUTO_STOP_USER}`);
    const audit = (await deps.store.audit.list()).filter((e) => e.userId === AUTO_STOP_USER);
    expect(audit.map((e) => `${e.action} ${e.result}`)).toEqual(['instance.stop ok', 'instance.stop ok']);

    // Later runs stop nothing twice and say nothing again.
    setNow('2026-11-18T06:46:00Z');
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    expect(chat.posted.filter((p) => p.op === 'reply')).toHaveLength(2);
    expect((await deps.store.audit.list()).filter((e) => e.userId === AUTO_STOP_USER)).toHaveLength(2);
  });

  it('is a dry run until actions are enabled: it says once what it would have done and stops nothing', async () => {
    const { deps, chat, port, setNow } = gpuDemo(research('auto', false));
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    for (const at of ['2026-11-18T06:31:00Z', '2026-11-18T06:46:00Z']) {
      setNow(at);
      await runGpuCheck(deps);
      await deliverOutbox(deps);
    }
    const replies = chat.posted.filter((p) => p.op === 'reply').map((p) => renderPlainText(p.message));
    expect(replies).toHaveLength(3);
    expect(
      replies.every((r) =>
        /^Dry run: burnrate would have stopped (alice-notebook|research-shared-notebook|research-legacy-v100) .+ automatically now/.test(r),
      ),
    ).toBe(true);
    for (const f of await deps.store.gpuFindings.listOpen()) expect(await stateOf(port, f.instanceId)).toBe('running');
    expect((await deps.store.audit.list()).filter((e) => e.userId === AUTO_STOP_USER).map((e) => e.result)).toEqual([
      'dry-run',
      'dry-run',
      'dry-run',
    ]);
  });
});

describe('Not ours', () => {
  it('asks which team, hands the instance over, alerts that team, marks the old alert, and routes later checks there', async () => {
    const { deps, chat } = gpuDemo();
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    const alice = await findingOf(deps, 'alice-notebook');
    const origin = chat.posted.find((p) => p.address === '#ml-research')!;

    const picker = await press(deps, ALICE, 'instance.reroute', alice);
    const choices = picker.privates[0]!.blocks.filter((b): b is ActionsBlock => b.type === 'actions').flatMap((b) => b.buttons);
    expect(choices.map((b) => b.label)).toEqual(['LLM Training', 'Inference Platform', 'Computer Vision']);
    expect(choices[0]!.action).toBe('instance.reroute:llm-training');

    const m = { target: 'fake:#ml-research', ref: origin.ref };
    const picked = await press(deps, ALICE, 'instance.reroute:llm-training', alice, { to: 'llm-training', m });
    expect(renderPlainText(picked.updates[0]!)).toContain('Handed alice-notebook to LLM Training.');
    expect((await deps.store.gpuFindings.get(alice))!.team).toBe('llm-training');
    const marked = chat.posted.find((p) => p.op === 'update' && p.ref === origin.ref)!;
    expect(renderPlainText(marked.message)).toContain(`Handed to LLM Training by ${ALICE}`);
    await deliverOutbox(deps);
    const handed = chat.posted.filter((p) => p.op === 'post' && p.address === '#llm-training').at(-1)!;
    expect(renderPlainText(handed.message)).toContain('alice-notebook');
    // The receiving team is told who handed it over, from which team and why, on its own clock (Los Angeles).
    expect(handed.message.timeZone).toBe('America/Los_Angeles');
    // A phone's first screen: the headline and what it burned (19 words here) plus the hand-over's one short line.
    expect(firstSectionWords(handed.message).lead).toBeLessThanOrEqual(30);
    expect(renderPlainText(handed.message)).toMatch(
      new RegExp(`Handed over by ${ALICE} of ML Research \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d PST: not theirs\\.`),
    );

    // The same pick again is a duplicate; people outside the team may not hand it away.
    const again = await press(deps, ALICE, 'instance.reroute:vision', alice, { to: 'llm-training' });
    expect(renderPlainText(again.updates[0]!)).toContain(`already handed to LLM Training by ${ALICE}`);
    const stranger = await press(deps, STRANGER, 'instance.reroute', await findingOf(deps, 'research-shared-notebook'));
    expect(stranger.text()).toContain('Only owners and approvers of ml-research can hand research-shared-notebook to another team.');

    // Later checks route it to its new team, whatever its tags say, and do not alert it again.
    const later = await runGpuCheck(deps);
    expect(later.findings.find((f) => f.name === 'alice-notebook')).toMatchObject({ team: 'llm-training', state: 'open' });
    expect(later.queued).toHaveLength(0);
    const audit = (await deps.store.audit.list()).filter((e) => e.action === 'instance.reroute').sort((a, b) => a.id - b.id);
    expect(audit.map((e) => `${e.userId} ${e.result}`)).toEqual([`${ALICE} ok`, `${ALICE} duplicate`, `${STRANGER} refused`]);
  });

  it('lets a member claim an unowned instance for a team of theirs, and nobody else', async () => {
    const { deps } = gpuDemo();
    await runGpuCheck(deps);
    const stray = await findingOf(deps, 'tmp-debug-box');
    const picker = await press(deps, CAROL, 'instance.reroute', stray);
    const choices = picker.privates[0]!.blocks.filter((b): b is ActionsBlock => b.type === 'actions').flatMap((b) => b.buttons);
    expect(choices.map((b) => b.label)).toEqual(['LLM Training']);
    expect((await press(deps, STRANGER, 'instance.reroute', stray)).text()).toContain('Only members of a team can claim tmp-debug-box');
    expect((await press(deps, CAROL, 'instance.reroute:ml-research', stray, { to: 'ml-research' })).text()).toContain(
      'Only members of ml-research can claim tmp-debug-box',
    );
    await press(deps, CAROL, 'instance.reroute:llm-training', stray, { to: 'llm-training' });
    expect((await deps.store.gpuFindings.get(stray))!.team).toBe('llm-training');
    // Once it has a team, its owners may stop it (a dry run here).
    expect((await press(deps, CAROL, 'instance.stop', stray)).text()).toContain('Dry run: burnrate would have stopped tmp-debug-box');
  });
});
