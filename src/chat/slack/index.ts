import { renderBlockKit } from '../../../templates/render/block-kit.js';
import type { ChatPlatform } from '../chat-platform.js';
import { readSlackSettings, type SlackSettings } from './slack-settings.js';

declare module '../../config/chat-channels.js' {
  interface ChatChannels {
    /** The team's Slack channel (`slack: { channel: C0123ABCD }`). */
    slack?: ChatChannel;
  }
}

/** How long serve waits for the answer workers to start before it answers in process meanwhile. */
const ANSWER_WORKERS_START_MS = 30_000;

/** Slack: Block Kit through the Web API; commands and clicks over HTTP or Socket Mode, answered by worker threads. */
export const slackPlatform: ChatPlatform<SlackSettings> = {
  id: 'slack',
  channel: { key: 'slack', hint: 'a Slack channel id such as C0123ABCD' },
  remote: true,
  hint: 'SLACK_BOT_TOKEN and SLACK_APP_TOKEN for Slack in Socket Mode, or SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET for HTTP mode',
  render: renderBlockKit,
  readSettings: (env) => readSlackSettings(env),
  async createPort(settings, { log, config }) {
    // Loaded here: the Web API client is for commands that send, not every command's.
    const { createSlackChat } = await import('./slack-chat.js');
    return createSlackChat(settings, log, config.slack);
  },
  async serve(_settings, { deps, env, dbPath, dispatch }) {
    // Loaded here: Bolt's app and the answer pool are serve's alone, not every command's.
    const [{ createAnswerer }, { settleWithin }, { createSlackApp }] = await Promise.all([
      import('./answer/create-answerer.js'),
      import('./answer/settle-within.js'),
      import('./slack-app.js'),
    ]);
    // Slash-command answers run on worker threads (unless the database is in memory), off the thread that acks.
    const answerer = createAnswerer(deps, { dbPath, env, dispatch });
    const app = createSlackApp(deps, { env, dispatch, answerer });
    try {
      await app.start();
    } catch (error) {
      await answerer.close();
      throw error;
    }
    return {
      routes: app.routes,
      lines: [app.describe(), answerer.describe()],
      // Until the workers are up, answers are computed in process, where a slow one delays acks.
      // Waiting is bounded: a worker that never starts does not stop serve.
      ready: () => settleWithin([answerer.ready()], ANSWER_WORKERS_START_MS),
      stop: () => app.stop(),
      close: () => answerer.close(),
    };
  },
};
