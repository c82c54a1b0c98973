import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveTeamId } from '../../commands/team-arg.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { reviewChart } from '../../templates/review-chart.js';
import { reviewLine } from '../../templates/review-line.js';
import { reviewSummary } from '../../templates/review-summary.js';
import { refreshSources } from '../jobs/refresh-sources.js';
import { runMonthlyReview, type TeamReview } from '../jobs/monthly-review.js';
import { parseReviewMonth } from '../jobs/review/review-calendar.js';
import { teamPeople } from '../jobs/review/review-people.js';
import { runtimeOf } from './runtime-of.js';
import { spotButtonOptions } from '../snapshots/recommendations-for.js';
import type { Deps } from '../deps.js';
import { personOf } from '../ports/people-directory.js';
import { COMMON_OPTIONS, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { jsonText } from '../domain/json-text.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.review.usage;

/**
 * The monthly cost review now: records each team's review of the month (once) and queues its
 * thread for the configured chat platforms (`serve` delivers), then prints the thread or JSON.
 * `--chart-dir` writes each chart as PNG; `--dry-run` records and queues nothing.
 */
export const reviewVerb: Verb = async (args, io) => {
  const options = {
    ...COMMON_OPTIONS,
    team: { type: 'string' },
    month: { type: 'string' },
    json: { type: 'boolean' },
    'chart-dir': { type: 'string' },
    'dry-run': { type: 'boolean' },
  } as const;
  const { values } = parseVerbArgs(args, options, USAGE);
  const now = (io.clock ?? (() => new Date()))();
  const month = values.month === undefined ? undefined : parseReviewMonth(values.month, now);
  const runtime = await runtimeOf(values, io);
  try {
    const { deps } = runtime;
    const teams = values.team ? [resolveTeamId(deps.config, values.team)] : undefined;
    // A fresh database (the demo's first run) is filled first, as serve does.
    if (await deps.store.isEmpty()) await refreshSources(deps);
    const reviews = await runMonthlyReview(deps, {
      dryRun: values['dry-run'] ?? false,
      ...(month ? { month } : {}),
      ...(teams ? { teams } : {}),
    });
    const chartDir = values['chart-dir'] ? resolve(io.cwd, values['chart-dir']) : null;
    if (chartDir) mkdirSync(chartDir, { recursive: true });
    const charts = reviews.map((r) => {
      const file = chartDir ? join(chartDir, `burnrate-${r.team}-${r.month}.png`) : null;
      if (file) writeFileSync(file, r.chart.png);
      return {
        file,
        bytes: r.chart.png.length,
        width: r.chart.width,
        height: r.chart.height,
        sha256: createHash('sha256').update(r.chart.png).digest('hex'),
      };
    });
    if (values.json) {
      io.out.write(
        `${jsonText({ dryRun: values['dry-run'] ?? false, reviews: reviews.map((r, i) => ({ team: r.team, month: r.month, created: r.created, queued: r.queued, figures: r.figures, lines: r.lines, chart: charts[i] })) })}\n`,
      );
      return 0;
    }
    reviews.forEach((r, i) => io.out.write(`${threadText(deps, r, charts[i]!.file)}\n`));
    if (values['dry-run']) io.out.write('(dry run: nothing recorded, nothing queued)\n');
    return 0;
  } finally {
    await runtime.close();
  }
};

/** The whole thread as the channel would read it: summary, chart, then each line. */
function threadText(deps: Deps, review: TeamReview, chartFile: string | null): string {
  const { config } = deps;
  const team = config.teams.find((t) => t.id === review.team)!;
  const rule = '─'.repeat(66);
  const parts = [
    renderPlainText(reviewSummary(review.figures, review.lines.length)),
    `${renderPlainText(reviewChart({ teamName: review.figures.teamName, month: review.month, png: '', team: review.team }))}${chartFile ? ` written to ${chartFile}` : ''}`,
    ...review.lines.map((line) =>
      renderPlainText(
        reviewLine({
          line,
          currency: review.figures.currency,
          people: teamPeople(team),
          person: (userId) => personOf(deps, userId),
          spot: spotButtonOptions(deps),
        }),
      ),
    ),
  ];
  const status = review.created ? '' : ' (posted before: nothing queued twice)';
  return `── ${review.team} ${review.month}${status} ${rule}`.slice(0, 70) + `\n${parts.join(`\n\n  ↳ `)}\n`;
}
