import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { ChatChannelDeclaration } from '../config/chat-channels.js';
import type { Config } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { Route } from '../http/server.js';
import type { Dispatch } from '../inbound/guarded-dispatch.js';
import type { ChatPort } from '../ports/chat-port.js';
import type { Store } from '../store/store.js';
import type { Message } from '../../templates/message.js';

/** What a platform's settings may depend on besides the environment. */
export interface ChatSurroundings {
  /** The address serve listens on; null outside serve (a command run once takes no requests). */
  host: string | null;
  /** A platform reached over the network (Slack, Teams) is configured: the local ones stand in when none is. */
  remoteConfigured: boolean;
  /** Where the terminal prints (serve's own output); absent: nowhere. */
  terminal?: Writable;
}

/** What a platform's outbound port is built from. */
export interface PortContext {
  config: Config;
  store: Store;
  log: Logger;
}

/** What serve hands a platform so that it takes requests. */
export interface ServeContext {
  deps: Deps;
  env: NodeJS.ProcessEnv;
  /** The SQLite file (null: Postgres), for workers that open their own connection. */
  dbPath: string | null;
  dispatch: Dispatch;
  /** A line for the operator, at once. */
  say: (line: string) => void;
}

/** A platform taking requests while serve runs. */
export interface ServedChat {
  /** Mounted on serve's one HTTP server. */
  routes: Map<string, Route>;
  /** Lines for the operator at start: how requests reach it. */
  lines: string[];
  /** Lines once the server listens at `base` (where to open the console). */
  listening?(base: string): string[];
  /** Resolves once it answers at full speed (answer workers started), or gave up waiting; serve waits for it after the first checks. */
  ready?(): Promise<unknown>;
  /** Stops taking requests it does not take through the server (Socket Mode's connection). */
  stop?(): Promise<void>;
  /** Finishes what it took (answers in flight) and lets go; serve calls it once the server is closed, or when starting failed. */
  close?(): Promise<void>;
}

/**
 * One chat platform's face: everything the rest of burnrate knows of it. Each platform's folder
 * exports one (`chat/<platform>/index.ts`) and only the registry (`chat/platforms.ts`) imports it.
 */
export interface ChatPlatform<S> {
  /** The platform's id, also the prefix of its outbox targets (`slack:C0123ABCD`). */
  readonly id: string;
  /**
   * burnrate.yml's key for a team's channel on it (under each team and `gpu.unowned`), and what a
   * channel id there looks like; absent where every team has one (console, terminal). The face also
   * types the key on `TeamConfig` by declaration merging (`ChatChannels` in config/chat-channels.ts).
   */
  readonly channel?: ChatChannelDeclaration;
  /** Reached over the network (Slack, Teams); the local ones (terminal, console) stand in when none is configured. */
  readonly remote: boolean;
  /**
   * For serve's line when no remote platform is configured: a remote one says how to turn it on
   * ("MICROSOFT_APP_ID and MICROSOFT_APP_PASSWORD for Teams"), a local one where messages show ("here").
   */
  readonly hint: string;
  /** The renderer of its dialect: a neutral Message as the platform shows it. */
  readonly render: (message: Message) => unknown;
  /** Its settings, from the environment: null when it is off; a half configuration throws, naming what is missing. */
  readSettings(env: NodeJS.ProcessEnv, around: ChatSurroundings): S | null;
  /**
   * The port alerts leave through, for every command that sends; absent where the platform exists
   * only under serve. Async so that the face loads its SDK here, never at its top: a command that
   * sends nothing loads no chat SDK.
   */
  createPort?(settings: S, ctx: PortContext): Promise<ChatPort>;
  /** What serve refuses before it starts (settings null: the platform is off). */
  checkServe?(settings: S | null, config: Config, host: string): void;
  /** Its inbound side under serve. */
  serve?(settings: S, ctx: ServeContext): Promise<ServedChat>;
}
