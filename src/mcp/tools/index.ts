import { anomaliesTool } from './anomalies-tool.js';
import { budgetsTool } from './budgets-tool.js';
import { explainFigureTool } from './explain-figure-tool.js';
import { findingsTool } from './findings-tool.js';
import { idleGpusTool } from './idle-gpus-tool.js';
import { proposalStatusTool, proposeActionTool } from './proposal-tools.js';
import { recommendationsTool } from './recommendations-tool.js';
import { savingsTool } from './savings-tool.js';
import { spendTool, topCostsTool } from './spend-tools.js';
import type { McpTool } from './tool.js';
import { wasteTool } from './waste-tool.js';

/** Every tool the MCP server offers, in the order clients list them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const MCP_TOOLS: readonly McpTool<any>[] = [
  spendTool,
  topCostsTool,
  budgetsTool,
  idleGpusTool,
  wasteTool,
  recommendationsTool,
  savingsTool,
  anomaliesTool,
  findingsTool,
  explainFigureTool,
  proposeActionTool,
  proposalStatusTool,
];
