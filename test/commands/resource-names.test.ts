import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { buildSources } from '../../src/providers/registry.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { renderBlockKit } from '../../templates/render/block-kit.js';
import { testDeps } from '../support/deps.js';
import { command } from '../support/recording-reply.js';
import { CAROL } from '../support/demo-org.js';

describe('resources by name', () => {
  it('top and spend by resource list each resource by the name the bill gives it, its id beside it, linked to its cloud console', async () => {
    const { deps } = testDeps(demoConfig(), '2026-12-02T10:00:00Z');
    deps.sources = buildSources(deps.config).spend;
    deps.gpu = buildGpuDeps(deps.config)!;
    await refreshSources(deps);
    for (const text of ['top 5 last-month', 'spend last-month by resource']) {
      const asked = command(CAROL, text);
      await dispatch(deps, asked);
      const answer = renderPlainText(asked.reply.privates[0]!);
      // The pre-training node the review calls llm-pretrain-node-0 (its Name tag), and the GCE machine it calls llm-pretrain-a3-0.
      expect(answer, text).toMatch(/llm-pretrain-node-0 \(i-[0-9a-f]{17}\)/);
      expect(answer, text).toContain('llm-pretrain-a3-0 (6661818903810209354)');
      // The EC2 instance links to its page in the AWS console of its region; the bare GCE id (no project or zone) to nothing.
      const slack = JSON.stringify(renderBlockKit(asked.reply.privates[0]!).blocks);
      expect(slack, text).toMatch(
        /\{"type":"link","url":"https:\/\/[a-z0-9-]+\.console\.aws\.amazon\.com\/ec2\/home\?region=[a-z0-9-]+#InstanceDetails:instanceId=i-[0-9a-f]{17}","text":"llm-pretrain-node-0 \(i-[0-9a-f]{17}\)"\}/,
      );
      expect(slack, text).toContain('{"type":"raw_text","text":"llm-pretrain-a3-0 (6661818903810209354)"}');
    }
  });
});
