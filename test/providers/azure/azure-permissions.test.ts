import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { declaredPermissions } from '../../../src/permissions/declared-permissions.js';
import { AZURE_METRICS_READ, AZURE_SPOT_PERMISSIONS, AZURE_STOP_PERMISSIONS } from '../../../src/providers/azure/azure-permissions.js';
import { AzureVmInventory } from '../../../src/providers/azure/azure-vm-inventory.js';

const committed = readFileSync(new URL('../../../docs/permissions.md', import.meta.url), 'utf8');

describe('Azure RBAC actions', () => {
  const inventory = new AzureVmInventory({
    subscriptions: [],
    tagKeys: [],
    resolveTeam: () => '',
    clientFor: () => {
      throw new Error('no client');
    },
  });

  it('declares every action the inventory, the Azure Monitor GPU metrics, a Stop and a spot migration call with, and the permissions page lists each', () => {
    const azure = declaredPermissions().filter((n) => n.cloud === 'azure');
    for (const action of [...inventory.permissions, AZURE_METRICS_READ, ...AZURE_STOP_PERMISSIONS, ...AZURE_SPOT_PERMISSIONS]) {
      expect(
        azure.map((n) => n.permission),
        action,
      ).toContain(action);
      expect(committed).toContain(`\`${action}\``);
    }
    // Only a Stop deallocates, so only a chat button needs the action.
    expect(azure.filter((n) => n.permission.endsWith('/deallocate/action')).every((n) => n.when.includes('actions.enabled'))).toBe(true);
  });

  it('gives a custom role definition Azure can read, with exactly those actions', () => {
    const section = committed.slice(committed.indexOf('## Azure'), committed.indexOf('## Kubernetes'));
    const role = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(section)![1]!) as {
      Name: string;
      IsCustom: boolean;
      Actions: string[];
      NotActions: string[];
      AssignableScopes: string[];
    };
    expect(role).toMatchObject({ IsCustom: true, NotActions: [], AssignableScopes: ['/subscriptions/SUBSCRIPTION_ID'] });
    expect(role.Actions).toEqual(
      [...new Set([...inventory.permissions, AZURE_METRICS_READ, ...AZURE_STOP_PERMISSIONS, ...AZURE_SPOT_PERMISSIONS])].sort(),
    );
  });
});
