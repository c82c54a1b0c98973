import { BurnrateError } from '../../domain/errors.js';
import { AZURE_STOP_PERMISSIONS } from './azure-permissions.js';

/** What an SDK error carries: a RestError's HTTP status and ARM error code, or an identity error's name. */
interface AzureErrorLike {
  name?: string;
  code?: string;
  statusCode?: number;
  message?: string;
}

/** ARM's answers for "not allowed": RBAC (AuthorizationFailed) or a deny assignment / policy. */
const ACCESS_DENIED = new Set([
  'AuthorizationFailed',
  'LinkedAuthorizationFailed',
  'RequestDisallowedByPolicy',
  'DenyAssignmentAuthorizationFailed',
]);
const NOT_FOUND = new Set(['ResourceNotFound', 'ResourceGroupNotFound', 'SubscriptionNotFound', 'NotFound']);
const BAD_TOKEN = new Set(['InvalidAuthenticationToken', 'ExpiredAuthenticationToken', 'InvalidAuthenticationTokenTenant']);
const NO_CREDENTIAL = new Set(['CredentialUnavailableError', 'AggregateAuthenticationError', 'AuthenticationRequiredError']);

/**
 * An Azure SDK error from the call that needed `action` → a BurnrateError that says which RBAC
 * action, VM or credential to look at. Only ARM's code and first sentence are kept: an ARM message
 * names the caller's object id, never a secret, but nothing more is needed to act on it.
 */
export function explainAzureError(error: unknown, action: string, where: string): BurnrateError {
  if (error instanceof BurnrateError) return error;
  const e = (error ?? {}) as AzureErrorLike;
  const code = e.code ?? e.name ?? '';
  const message = (e.message ?? '').split('\n')[0]!.slice(0, 300);
  if (ACCESS_DENIED.has(code) || e.statusCode === 403)
    return new BurnrateError(
      'burnrate_azure_access_denied',
      `Azure denied ${action} on ${where} (${code || 'HTTP 403'}).`,
      `Grant ${action} to burnrate's identity (docs/azure.md has a custom role); stopping VMs needs ${AZURE_STOP_PERMISSIONS.join(', ')}.`,
      1,
    );
  if (NOT_FOUND.has(code) || e.statusCode === 404)
    return new BurnrateError(
      'burnrate_azure_vm_not_found',
      `Azure has no such VM: ${where}`,
      'Check the subscription burnrate lists and that the VM still exists (a deleted VM leaves the inventory at its next read).',
      1,
    );
  if (e.statusCode === 429)
    return new BurnrateError(
      'burnrate_azure_throttled',
      `Azure Resource Manager kept throttling ${action} on ${where}.`,
      'Try again in a minute. If it persists, something else in the subscription is using up its Resource Manager request quota.',
      1,
    );
  if (NO_CREDENTIAL.has(code))
    return new BurnrateError(
      'burnrate_azure_no_credentials',
      `No Azure credential found for ${where}.`,
      'Run burnrate with a managed identity or workload identity, or set AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET (docs/azure.md).',
      1,
    );
  if (BAD_TOKEN.has(code) || e.statusCode === 401)
    return new BurnrateError(
      'burnrate_azure_credentials_invalid',
      `Azure Resource Manager rejected burnrate's token for ${where} (${code || 'HTTP 401'}).`,
      "Check that the identity belongs to the subscription's tenant and that this machine's clock is right.",
      1,
    );
  return new BurnrateError(
    'burnrate_azure_failed',
    `Azure ${action} failed on ${where}: ${code || 'Error'}${message ? `: ${message}` : ''}`,
    undefined,
    1,
  );
}
