import { ACTIONS } from '../actions/index.js';
import type { PermissionNeed } from '../ports/permission-need.js';
import { providerPermissions } from '../providers/registry.js';

/**
 * Every cloud permission burnrate can use, from the providers that declare them: the one place
 * docs/permissions.md is generated from, so the docs cannot drift from the code.
 */
export function declaredPermissions(): PermissionNeed[] {
  // Chat buttons that act on the cloud (stop, move to spot) say which port permissions they call;
  // the provider whose ports call them lists them, one line per permission naming every button that uses it.
  const buttons = new Map<string, string[]>();
  for (const action of ACTIONS)
    for (const permission of action.permissions) buttons.set(permission, [...(buttons.get(permission) ?? []), action.id]);
  const needs = providerPermissions(buttons);
  const unowned = [...buttons.keys()].filter((permission) => !needs.some((n) => n.permission === permission));
  if (unowned.length > 0) throw new Error(`no provider's ports declare ${unowned.join(', ')}`);
  return needs;
}
