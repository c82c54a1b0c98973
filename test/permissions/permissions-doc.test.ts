import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../src/actions/index.js';
import { STOP_PERMISSIONS } from '../../src/ports/instance-port.js';
import { SPOT_PERMISSIONS } from '../../src/ports/spot-port.js';
import { Ec2GpuInventory } from '../../src/providers/aws/ec2/ec2-gpu-inventory.js';
import { STUDIO_INVENTORY_PERMISSIONS, STUDIO_STOP_PERMISSION } from '../../src/providers/aws/sagemaker-studio/studio-permissions.js';
import { declaredKubeRules } from '../../src/permissions/declared-kube-rules.js';
import { declaredPermissions } from '../../src/permissions/declared-permissions.js';
import { renderPermissionsDoc } from '../../src/permissions/permissions-doc.js';
import { ATHENA_QUERY_PERMISSIONS } from '../../src/providers/aws/athena/athena-permissions.js';
import { BUDGETS_PERMISSION, COST_EXPLORER_PERMISSION } from '../../src/providers/aws/aws-permissions.js';
import { CLOUDWATCH_GPU_PERMISSIONS } from '../../src/providers/aws/cloudwatch/nvidia-smi-metrics.js';
import { BIGQUERY_JOBS, BIGQUERY_READ, BUDGETS_LIST } from '../../src/providers/gcp/gcp-permissions.js';

const committed = readFileSync(new URL('../../docs/permissions.md', import.meta.url), 'utf8');

describe('docs/permissions.md', () => {
  it('is exactly what the declared permissions generate (run scripts/generate-permissions-doc.ts after changing one)', () => {
    expect(committed).toBe(renderPermissionsDoc(declaredPermissions(), declaredKubeRules()));
  });

  it('covers every permission the sources and actions call with', () => {
    const declared = new Set(declaredPermissions().map((n) => n.permission));
    const used = [
      COST_EXPLORER_PERMISSION,
      BUDGETS_PERMISSION,
      'sts:AssumeRole',
      ...CLOUDWATCH_GPU_PERMISSIONS,
      ...STOP_PERMISSIONS,
      ...SPOT_PERMISSIONS,
      ...new Ec2GpuInventory({
        regions: [],
        tagKeys: [],
        resolveTeam: () => '',
        clientFor: () => {
          throw new Error('no client');
        },
      }).permissions,
      ...STUDIO_INVENTORY_PERMISSIONS,
      // A Studio app's Stop reads the app and its tags (the inventory's permissions above), then deletes it.
      STUDIO_STOP_PERMISSION,
      ...ACTIONS.flatMap((a) => a.permissions),
      BIGQUERY_JOBS.permission,
      BIGQUERY_READ.permission,
      BUDGETS_LIST.permission,
      ...ATHENA_QUERY_PERMISSIONS,
      // What Athena does with the caller's permissions to run the query.
      'glue:GetTable',
      'glue:GetPartitions',
      's3:GetObject',
      's3:ListBucket',
      's3:PutObject',
    ];
    for (const permission of used) {
      expect(declared.has(permission), permission).toBe(true);
      expect(committed).toContain(`\`${permission}\``);
    }
  });

  it('gives a policy IAM can parse, with one statement per feature', () => {
    const json = /```json\n([\s\S]*?)\n```/.exec(committed)?.[1];
    const policy = JSON.parse(json ?? '') as { Statement: { Sid: string; Action: string[] }[] };
    expect(policy.Statement.every((s) => /^[A-Za-z0-9]+$/.test(s.Sid))).toBe(true);
    expect(policy.Statement.flatMap((s) => s.Action)).toEqual(
      expect.arrayContaining(['ce:GetCostAndUsage', 'budgets:ViewBudget', 'ec2:StopInstances', 'cloudwatch:GetMetricData']),
    );
  });
});
