import { describe, expect, it } from 'vitest';
import { loadSpendReport } from '../../src/snapshots/spend-report.js';
import { renderBlockKit } from '../../templates/render/block-kit.js';
import { renderAdaptiveCard } from '../../templates/render/adaptive-card.js';
import { renderHtml } from '../../templates/render/html.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { spendSummary } from '../../templates/spend-summary.js';
import { spendRow, testDeps } from '../support/deps.js';
import { adaptiveCardProblems, checkSlackLimits, type SlackBlock } from '../support/platform-limits.js';

// A bill whose resources the clouds' consoles can find: an EC2 instance in its region, a Compute
// Engine VM by project, zone and name (the bill's ResourceName beside its numeric id), an Azure VM by
// its resource id; and one no console page is known for.
const GCE = '//compute.googleapis.com/projects/ml-research-42/zones/europe-west4-b/instances/6661818903810209354';
const AZURE = '/subscriptions/0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17/resourcegroups/cv/providers/microsoft.compute/virtualmachines/cv-t4';
const rows = [
  { ...spendRow('ml', '2026-11-03', 300), resourceId: 'i-0f6a31fb56d7ab70b', region: 'eu-west-1' },
  {
    ...spendRow('ml', '2026-11-03', 200),
    provider: 'Google Cloud',
    resourceId: GCE,
    resourceName: 'llm-pretrain-a3-0',
    region: 'europe-west4',
  },
  { ...spendRow('ml', '2026-11-03', 100), provider: 'Microsoft', resourceId: AZURE, region: 'eastus' },
  { ...spendRow('ml', '2026-11-03', 50), resourceId: 'vol-0abc', region: 'eu-west-1' },
];

describe('resources in spend listings link to their cloud console', () => {
  it('gives each resource its console page where its cloud has one, and every surface draws the link on its name', async () => {
    const { deps } = testDeps({ teams: [{ id: 'ml' }] }, '2026-11-20T10:00:00Z');
    await deps.store.importBatches([{ scope: { source: 'test', billingPeriods: ['2026-11'] }, rows, dataThrough: '2026-11-04T00:00:00Z' }]);
    const report = await loadSpendReport(deps, { period: { start: '2026-11-01', end: '2026-12-01' }, by: 'resource' });
    const links = Object.fromEntries(report.rows.map((r) => [r.key, r.link ?? null]));
    expect(links).toEqual({
      'i-0f6a31fb56d7ab70b':
        'https://eu-west-1.console.aws.amazon.com/ec2/home?region=eu-west-1#InstanceDetails:instanceId=i-0f6a31fb56d7ab70b',
      [`llm-pretrain-a3-0 (${GCE})`]:
        'https://console.cloud.google.com/compute/instancesDetail/zones/europe-west4-b/instances/llm-pretrain-a3-0?project=ml-research-42',
      [AZURE]: `https://portal.azure.com/#resource${AZURE}/overview`,
      'vol-0abc': null,
    });

    const message = spendSummary(report, 'ml');
    const aws = links['i-0f6a31fb56d7ab70b']!;
    const slack = JSON.stringify(renderBlockKit(message).blocks);
    expect(slack).toContain(JSON.stringify({ type: 'link', url: aws, text: 'i-0f6a31fb56d7ab70b' }));
    const card = renderAdaptiveCard(message);
    expect(adaptiveCardProblems(card)).toEqual([]);
    expect(JSON.stringify(card)).toContain(JSON.stringify(`[i-0f6a31fb56d7ab70b](${aws})`));
    checkSlackLimits(renderBlockKit(message).blocks as SlackBlock[]);
    expect(renderHtml(message)).toContain(`<a href="${aws}" target="_blank" rel="noopener noreferrer">i-0f6a31fb56d7ab70b</a>`);
    // The terminal and the CLI list each link under the table, as they do link buttons.
    expect(renderPlainText(message)).toContain(`i-0f6a31fb56d7ab70b: ${aws}`);
    // A resource without a console page is its name alone.
    expect(slack).toContain(JSON.stringify({ type: 'raw_text', text: 'vol-0abc' }));
  });
});
