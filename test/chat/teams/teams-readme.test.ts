import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../support/config.js';

/** The Teams page of the docs, docs/teams.md. */
function teamsSection(): string {
  return readFileSync(new URL('../../../docs/teams.md', import.meta.url), 'utf8');
}

describe('the docs on Teams', () => {
  it('shows a burnrate.yml that the configuration accepts, with a Teams channel and Entra ids', () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(teamsSection())?.[1]?.replace(/^ {3}/gm, '');
    if (!yaml) throw new Error('docs/teams.md lost its Teams burnrate.yml');
    const config = parseConfigText(yaml, 'burnrate.yml');
    expect(config.teams[0]?.msteams?.channel).toMatch(/^19:.+@thread\.tacv2$/);
    expect(config.admins).toHaveLength(1);
  });

  it('names every variable Teams reads, and the command that builds the app package', () => {
    const section = teamsSection();
    for (const variable of [
      'MICROSOFT_APP_ID',
      'MICROSOFT_APP_PASSWORD',
      'MICROSOFT_APP_TENANT_ID',
      'MICROSOFT_APP_TYPE',
      'BURNRATE_INSECURE_DEV',
      // The credentials besides a secret, and the Agents SDK's own names.
      'certPemFile',
      'certKeyFile',
      'FICClientId',
      'AZURE_FEDERATED_TOKEN_FILE',
      'clientId',
      'tenantId',
      'clientSecret',
    ])
      expect(section).toContain(`\`${variable}\``);
    const scripts = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).scripts;
    expect(section).toContain('npm run package:teams');
    expect(scripts['package:teams']).toBeDefined();
  });
});
