import type { SourceConfig } from '../config/schema.js';
import { DemoSource } from './demo/demo-source.js';
import { FocusSource } from './focus/focus-source.js';
import type { SpendSource } from './port.js';

type Factory<T extends SourceConfig['type']> = (config: Extract<SourceConfig, { type: T }>) => SpendSource;

/** Source type -> constructor. A new source is one entry here and one folder beside this file. */
const FACTORIES: { [T in SourceConfig['type']]: Factory<T> } = {
  focus: (c) => new FocusSource({ id: c.id ?? 'focus', paths: c.paths }),
  demo: (c) => new DemoSource({ seed: c.seed, days: c.days }),
};

export function buildSources(configs: readonly SourceConfig[]): SpendSource[] {
  return configs.map((config) => (FACTORIES[config.type] as Factory<typeof config.type>)(config as never));
}
