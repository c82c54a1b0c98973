/** "Keep it running" until a time: the idle check leaves the instance alone until then. */
export interface KeepException {
  instanceId: string;
  until: Date;
  byUser: string;
  at: Date;
}
