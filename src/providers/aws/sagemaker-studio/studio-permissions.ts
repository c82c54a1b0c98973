import type { PermissionNeed } from '../../../ports/permission-need.js';

/** IAM actions the SageMaker Studio inventory calls (DescribeDomain and DescribeSpace only read idle shutdown settings). */
export const STUDIO_INVENTORY_PERMISSIONS = [
  'sagemaker:ListDomains',
  'sagemaker:ListApps',
  'sagemaker:DescribeApp',
  'sagemaker:ListTags',
  'sagemaker:DescribeDomain',
  'sagemaker:DescribeSpace',
] as const;

/** What a Stop of a Studio app calls: it reads the app and its tags first (both in the inventory's list), then deletes it. */
export const STUDIO_STOP_PERMISSION = 'sagemaker:DeleteApp';

/** The Studio inventory's and its Stop's needs, for docs/permissions.md. */
export const STUDIO_PERMISSIONS: readonly PermissionNeed[] = [
  ...STUDIO_INVENTORY_PERMISSIONS.map(
    (permission): PermissionNeed => ({
      cloud: 'aws',
      permission,
      resource: '*',
      usedBy:
        permission === 'sagemaker:DescribeDomain' || permission === 'sagemaker:DescribeSpace'
          ? "GPU inventory (SageMaker Studio): the domain's and spaces' idle shutdown"
          : 'GPU inventory (SageMaker Studio)',
      when: 'with a sagemaker-studio GPU inventory',
    }),
  ),
  {
    cloud: 'aws',
    permission: STUDIO_STOP_PERMISSION,
    resource: '*',
    usedBy: 'chat button instance.stop on a SageMaker Studio app (deletes the app; its space and storage stay)',
    when: 'with a sagemaker-studio GPU inventory, to act from chat (actions.enabled: true)',
  },
];
