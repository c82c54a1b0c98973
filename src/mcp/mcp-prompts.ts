import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const team = z.string().trim().min(1).max(80).describe('A team id or name');

/** The questions people ask most, as prompts a client can offer; each names the tools that answer it. */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'weekly_cost_review',
    {
      title: 'Weekly cost review',
      description: "A team's week: spend, budget, idle GPUs, waste and what to do first.",
      argsSchema: { team },
    },
    ({ team }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Review the cloud and GPU costs of team ${team} for the last 7 days with burnrate: spend by service (spend, period last 7 days), the budget and its forecast (budgets), idle GPUs now (idle_gpus), the waste diagnosis (waste) and recommendations. Quote burnrate's figures as given, say what moved and propose the first two things to do.`,
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    'why_did_spend_jump',
    { title: 'Why did spend jump?', description: 'What drove a rise in a team’s spend.', argsSchema: { team } },
    ({ team }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Why did the spend of team ${team} rise? Use burnrate: anomalies of the last 14 days, spend by day and by resource this month and last month, and idle_gpus. Name the resources that moved, by how much, and who owns them.`,
          },
        },
      ],
    }),
  );
}
