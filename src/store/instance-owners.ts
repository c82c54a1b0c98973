import type { InstanceOwner } from '../domain/instance-owner.js';
import type { OutboxDraft } from './outbox-records.js';

export interface InstanceOwnerStore {
  list(): Promise<InstanceOwner[]>;
  /** Records the owner, moves the instance's open findings to it and queues `alerts`, in one transaction. */
  reassign(owner: InstanceOwner, alerts: OutboxDraft[]): Promise<void>;
}
