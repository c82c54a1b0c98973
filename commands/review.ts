import { runOperationAs, type Operation } from '../src/operations/operation.js';
import { runMonthlyReview, type TeamReview } from '../src/jobs/monthly-review.js';
import { lastMonth, parseReviewMonth } from '../src/jobs/review/review-calendar.js';
import { monthName } from '../templates/freshness.js';
import type { Message } from '../templates/message.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

/** Posts a team's review of a month once, audited as `review` (a second post is a duplicate). */
const postReview: Operation<{ team: string; month: string }, TeamReview> = {
  id: 'review',
  sideEffects: 'records',
  subject: ({ team, month }) => ({ subject: `review:${team}:${month}` }),
  // Any member of the team may post it: the command resolves the team among those the caller sees.
  async authorize() {},
  async run({ deps }, { team, month }) {
    const [review] = await runMonthlyReview(deps, { teams: [team], month });
    return { audit: { result: review!.created ? 'ok' : 'duplicate' }, value: review! };
  },
};

/** `/burnrate review [team] [month]`: posts a team's monthly cost review in its channel, once per month. */
export const reviewCommand: CommandSpec = {
  verb: 'review',
  usage: '/burnrate review [team] [YYYY-MM]',
  example: '/burnrate review llm-training 2026-11',
  summary: "post a team's monthly cost review (last month by default) in its channel",
  async run(ctx, words) {
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const months = words.filter((w) => /^\d{4}-\d{1,2}$/.test(w));
    const others = words.filter((w) => !months.includes(w));
    if (months.length > 1 || others.length > 1) throw badArguments(this, `I don't understand "${words.join(' ')}"`);
    const team = others[0]
      ? resolveTeamId(ctx.deps.config, others[0], ctx.visibleTeams)
      : ctx.visibleTeams.length === 1
        ? ctx.visibleTeams[0]!
        : null;
    if (!team) throw badArguments(this, `You are in several teams (${ctx.visibleTeams.join(', ')}): name one`);
    const config = ctx.deps.config.teams.find((t) => t.id === team)!;
    const month = months[0] ? parseReviewMonth(months[0], ctx.now) : lastMonth(ctx.now, config.timezone);
    const review = await runOperationAs(ctx.deps, ctx.actor, postReview, { team, month });
    const name = `${monthName(month)} review of ${config.name ?? team}`;
    const channels = ctx.deps.chat.filter((port) => port.addressOf(config) !== null).length;
    let text: string;
    if (!review.created && review.queued === 0)
      text = `The ${name} was posted before: nothing is posted twice. Its thread has the ${review.lines.length} cost lines.`;
    else if (channels === 0)
      text = `Recorded the ${name}, but ${config.name ?? team} has no chat channel configured, so nothing is posted.`;
    else text = `Posting the ${name} in its channel: the summary, the chart and ${review.lines.length} cost lines to answer in its thread.`;
    const message: Message = { summary: text, blocks: [{ type: 'text', text }] };
    return message;
  },
};
