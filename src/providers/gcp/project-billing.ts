import { CloudBillingClient } from '@google-cloud/billing';
import { withRetries, type RetryPolicy } from '../retry.js';
import { explainGoogleError, isRetryableGoogleError } from './gcp-errors.js';
import { PROJECT_BILLING_INFO } from './gcp-permissions.js';
import { gaxClientOptions, type GoogleEndpoint } from './google-endpoint.js';

export interface ProjectBilling {
  project: string;
  /** `billingAccounts/012345-6789AB-CDEF01`, or empty when the project has none. */
  billingAccount: string;
  billingEnabled: boolean;
}

/** Which billing account a project bills to, from Cloud Billing. */
export async function projectBilling(project: string, endpoint: GoogleEndpoint, retry: RetryPolicy): Promise<ProjectBilling> {
  const client = new CloudBillingClient(gaxClientOptions(endpoint));
  try {
    const [info] = await withRetries(
      () => client.getProjectBillingInfo({ name: `projects/${project}` }, { retry: null }),
      isRetryableGoogleError,
      retry,
    );
    return { project, billingAccount: info.billingAccountName ?? '', billingEnabled: info.billingEnabled ?? false };
  } catch (error) {
    throw explainGoogleError(error, {
      service: 'Cloud Billing',
      permission: PROJECT_BILLING_INFO.permission,
      role: PROJECT_BILLING_INFO.role,
      resource: `project ${project}`,
    });
  } finally {
    await client.close();
  }
}
