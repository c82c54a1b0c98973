import { ACTIONS } from '../actions/index.js';
import type { PermissionNeed } from '../ports/permission-need.js';
import { providerPermissions } from '../providers/registry.js';

/**
 * Every cloud permission burnrate can use, from the providers that declare them (a chat button's
 * are the permissions of the provider ports it acts through): the one place docs/permissions.md is
 * generated from, so the docs cannot drift from the code.
 */
export function declaredPermissions(): PermissionNeed[] {
  const direct = ACTIONS.filter((action) => action.permissions.length > 0).map((action) => action.id);
  // A button that calls a cloud itself would have no provider to list its permissions under.
  if (direct.length > 0) throw new Error(`declare the cloud permissions of ${direct.join(', ')} on the provider port they act through`);
  return providerPermissions(ACTIONS);
}
