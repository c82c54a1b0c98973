import type { Logger } from 'pino';
import type { Config } from './config/schema.js';
import type { ChatPort } from './chat/chat-port.js';
import type { SpendSource } from './sources/port.js';
import type { Store } from './store/store.js';

/**
 * Everything the product needs, built once in main.ts and passed down. No module singletons:
 * tests build their own Deps from real parts (a :memory: store, fake chat transports).
 */
export interface Deps {
  config: Config;
  store: Store;
  sources: SpendSource[];
  chat: ChatPort[];
  clock: () => Date;
  log: Logger;
}
