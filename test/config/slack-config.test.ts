import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../support/config.js';
import { errorOf } from '../support/error-of.js';

const withSlack = (slack: string) => `teams:\n  - { id: a }\nslack: ${slack}\n`;

describe('slack settings in burnrate.yml', () => {
  it('reads history as a limited app by default, the cautious reading', () => {
    expect(parseConfigText('teams: []').slack).toEqual({ historyLimit: 'limited' });
    expect(parseConfigText(withSlack('{ historyLimit: marketplace }')).slack.historyLimit).toBe('marketplace');
  });

  it('refuses any other history limit, saying what to write', () => {
    const error = errorOf(() => parseConfigText(withSlack('{ historyLimit: fast }')));
    expect(error.code).toBe('burnrate_config_invalid');
    expect(error.message).toContain('slack.historyLimit: expected marketplace');
    expect(error.message).toContain('or limited');
  });

  it('refuses an unknown key under slack', () => {
    expect(errorOf(() => parseConfigText(withSlack('{ historylimit: limited }'))).message).toContain('historylimit');
  });
});
