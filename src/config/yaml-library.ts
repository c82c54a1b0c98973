import { createRequire } from 'node:module';

type YamlLibrary = typeof import('yaml');
let library: YamlLibrary | undefined;

/**
 * The YAML parser, loaded when a configuration is first read: a command on the embedded demo
 * organisation (no burnrate.yml) never needs its seventy modules. Required, not imported, because
 * reading a configuration is synchronous; the library's Node entry is CommonJS either way.
 */
export function yamlLibrary(): YamlLibrary {
  return (library ??= createRequire(import.meta.url)('yaml') as YamlLibrary);
}
