/** A Microsoft Graph permission the bot's app registration may need, as docs/permissions.md lists it. */
export interface GraphPermission {
  permission: string;
  /** Application permissions act without a signed-in user, as the bot does; they need an admin's consent. */
  type: 'Application';
  usedBy: string;
  needed: string;
}

/**
 * What EntraGroups reads: GET /groups/{id}, /groups?$filter=mailNickname eq '…' and
 * /groups/{id}/transitiveMembers/microsoft.graph.user. GroupMember.Read.All is the least
 * privileged application permission Graph documents for all three.
 */
export const GRAPH_PERMISSIONS: readonly GraphPermission[] = [
  {
    permission: 'GroupMember.Read.All',
    type: 'Application',
    usedBy: 'Entra groups as owners, approvers or admins (Teams)',
    needed: 'when burnrate.yml names an Entra group (an object id or @mailNickname)',
  },
];
