/** A person handed an instance to a team ("Not ours"); it outranks the instance's tags. */
export interface InstanceOwner {
  instanceId: string;
  team: string;
  byUser: string;
  at: Date;
}
