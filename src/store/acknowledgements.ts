import type { Acknowledgement } from '../domain/acknowledgement.js';

export interface AcknowledgementStore {
  acknowledge(ack: Acknowledgement): Promise<{ ack: Acknowledgement; first: boolean }>;
  get(findingId: string): Promise<Acknowledgement | null>;
}
