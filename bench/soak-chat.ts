// The simulated chat platform of the delivery soak, and the chat port one delivery process talks to
// it through. The platform keeps every message it took, with the outbox key it came with, so
// doubles are counted on the platform's side, whatever the outbox believes.
import { DeliveryError, type ChatCapabilities, type ChatPort, type PostOptions } from '../src/ports/chat-port.js';
import type { TeamConfig } from '../src/config/schema.js';
import type { Message } from '../templates/message.js';
import type { SimClock } from './soak-clock.js';
import type { FaultPlayer } from './soak-faults.js';

export const SOAK_PLATFORM = 'soak';

interface Posted {
  address: string;
  parentRef: string | null;
  ref: string;
  at: number;
}

export class SoakPlatform {
  private seq = 0;
  /** Every message taken, by outbox key: more than one is a double. */
  readonly byKey = new Map<string, Posted[]>();

  constructor(private readonly sim: SimClock) {}

  record(address: string, key: string, parentRef: string | null): string {
    const ref = `${(this.sim.now / 1000).toFixed(6)}-${++this.seq}`;
    const copies = this.byKey.get(key) ?? [];
    copies.push({ address, parentRef, ref, at: this.sim.now });
    this.byKey.set(key, copies);
    return ref;
  }

  /** Like Slack's history (or a thread's replies) searched by message metadata. */
  find(address: string, key: string, since: number, parentRef: string | null): string | null {
    const found = this.byKey.get(key)?.find((p) => p.address === address && p.parentRef === parentRef && p.at >= since);
    return found?.ref ?? null;
  }
}

/**
 * One process's connection to the platform. Faults decide each call's fate; a crash calls
 * `onCrash` and never answers, which is what the delivery pass sees of a process that died.
 */
export class SoakChatPort implements ChatPort {
  readonly platform = SOAK_PLATFORM;
  readonly capabilities: ChatCapabilities = { threads: true, ephemeral: false, modals: false, files: false, inlineImageBytes: null };
  /** Present where the platform lets a bot read what it posted (Slack-like), absent otherwise (Teams-like). */
  readonly findPosted?: ChatPort['findPosted'];

  constructor(
    private readonly sim: SimClock,
    private readonly platformSide: SoakPlatform,
    private readonly faults: FaultPlayer,
    private readonly onCrash: () => void,
    lookUp: boolean,
  ) {
    if (lookUp) this.findPosted = (address, key, where) => this.lookUp(address, key, where);
  }

  addressOf(team: TeamConfig): string {
    return `C-${team.id}`;
  }

  post(address: string, _message: Message, options?: PostOptions): Promise<{ ref: string | null }> {
    return this.send(address, null, options?.key);
  }

  reply(address: string, parentRef: string, _message: Message, options?: PostOptions): Promise<{ ref: string | null }> {
    return this.send(address, parentRef, options?.key);
  }

  async update(): Promise<void> {
    // The soak queues no updates: replacing a message cannot double it.
  }

  private async send(address: string, parentRef: string | null, key: string | undefined): Promise<{ ref: string | null }> {
    if (!key) throw new DeliveryError('the soak platform needs the outbox key of every post', true);
    const fate = this.faults.fate(this.sim.now, true);
    switch (fate.kind) {
      case 'down':
        if (fate.recorded) this.platformSide.record(address, key, parentRef);
        throw downError(fate.refused);
      case 'throttled':
        throw new DeliveryError(`rate limited, retry after ${fate.retryAfterMs / 1000} s`, false, fate.retryAfterMs);
      case 'lost':
        this.platformSide.record(address, key, parentRef);
        throw new DeliveryError('network error (socket hang up)', false, undefined, true);
      case 'crash':
        if (fate.recorded) this.platformSide.record(address, key, parentRef);
        this.onCrash();
        return new Promise(() => {});
      case 'ok': {
        // A slow answer: the platform took the post at once; its answer takes a while.
        const ref = this.platformSide.record(address, key, parentRef);
        if (fate.answerAfterMs > 0) await this.sim.sleep(fate.answerAfterMs);
        return { ref };
      }
    }
  }

  private async lookUp(address: string, key: string, where: { since: Date; parentRef: string | null }): Promise<string | null> {
    const fate = this.faults.fate(this.sim.now, false);
    if (fate.kind === 'down') throw downError(fate.refused);
    // The search reads the history as it is when the call arrives, however late its answer.
    const found = this.platformSide.find(address, key, where.since.getTime(), where.parentRef);
    if (fate.kind === 'ok' && fate.answerAfterMs > 0) await this.sim.sleep(fate.answerAfterMs);
    return found;
  }
}

function downError(refused: boolean): DeliveryError {
  return refused
    ? new DeliveryError('network error (connect ECONNREFUSED)', false, undefined, false, true)
    : new DeliveryError('HTTP 503 Service Unavailable', false, undefined, true, true);
}
