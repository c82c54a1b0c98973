/** The idempotency row of an instance action, written before the cloud is asked. */
export interface InstanceActionRecord {
  findingId: string;
  /** e.g. `instance.stop`. */
  action: string;
  instanceId: string;
  byUser: string;
  at: Date;
  /** null while the action runs; the StopResult outcome once done. */
  outcome: string | null;
  detail: string | null;
}
