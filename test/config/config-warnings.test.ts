import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configWarnings } from '../../src/config/config-warnings.js';
import { parseConfigText } from '../support/config.js';
import { cli, workDir } from '../support/run-cli.js';
import { errorOf } from '../support/error-of.js';

const team = (id: string, owners: string, approvers: string) => `
  - id: ${id}
    owners: ${owners}
    approvers: ${approvers}`;
const yml = (teams: string, spot = '') => `teams:${teams}\nsources:\n  - { type: demo }\n${spot}`;

describe('who may approve, as burnrate.yml lists them', () => {
  it('refuses a Slack channel id or a bare word as a person, saying what to write instead', () => {
    const channel = errorOf(() => parseConfigText(yml(team('ml', '[C0123ABCD]', '[U01BBB]')))).message;
    expect(channel).toContain('teams[0].owners[0]: "C0123ABCD" is a Slack channel id, not a person: list people by user id (U0123ABCD');
    const word = errorOf(() => parseConfigText(yml(team('ml', '[U01AAA]', '[alice]')))).message;
    expect(word).toContain(
      'teams[0].approvers[0]: "alice" is neither a chat user id nor a group: write their user id (U0123ABCD, an Entra object id), the group with its @ (@alice) or their email (alice@example.com)',
    );
    // What people do write still passes: Slack and Teams ids, groups, emails, Entra object ids.
    const ok = parseConfigText(
      yml(team('ml', '[U01AAA, W01CCC, dana@example.com]', "['@ml-leads', S0GROUP, 5b8a0c1e-0000-4000-8000-00000000a11c]")),
    );
    expect(ok.teams[0]?.approvers).toHaveLength(3);
  });

  it('warns about a team that can never give a spot migration its two different approvers', () => {
    const teams =
      team('solo', '[U01AAA]', '[U01BBB]') + team('pair', '[U01AAA]', '[U01BBB, U01CCC]') + team('group', '[U01AAA]', "['@leads']");
    const config = parseConfigText(yml(teams));
    expect(configWarnings(config)).toEqual([
      'teams.solo: one person can approve a spot migration, so one saving more than 5000 a month (spot.secondApproverAbove) waits for an admin: list a second approver, or set spot.ownersApprove: true so its owners count.',
    ]);
    // With owners counting, the owner and the approver are two people.
    expect(configWarnings(parseConfigText(yml(teams, 'spot: { ownersApprove: true }\n')))).toEqual([]);
  });

  it('config validate prints the warnings after "valid"', async () => {
    const dir = workDir();
    writeFileSync(join(dir, 'solo.yml'), yml(team('solo', '[U01AAA]', '[U01BBB]')));
    const run = await cli(['config', 'validate', '--config', 'solo.yml'], { cwd: dir });
    expect(run).toMatchObject({ code: 0 });
    expect(run.out).toContain('warning: teams.solo: one person can approve a spot migration');
  });
});
