import type { Config, SourceConfig } from '../config/schema.js';
import type { GpuInventorySourceConfig } from '../config/gpu-sources-schema.js';
import type { UnreadInventory } from '../domain/inventory-read.js';
import type { ConsoleTarget, InstanceLink } from '../domain/instance-links.js';
import type { KubeRule } from '../domain/kubernetes.js';
import type { StopWording } from '../domain/stop-wording.js';
import type { ActionPortName, PermissionNeed } from '../ports/permission-need.js';
import { aws } from './aws/index.js';
import { azure } from './azure/index.js';
import { demo } from './demo/index.js';
import { focus } from './focus/index.js';
import { gcp } from './gcp/index.js';
import type { GoogleEndpoint } from './gcp/google-endpoint.js';
import { kubernetes } from './kubernetes/index.js';
import { prometheus } from './prometheus/index.js';
import type { BuiltSources, Provider, ProviderFleet } from './provider.js';
import { inventorySourceName } from './inventory-source.js';

export type { BuiltSources } from './provider.js';

/** Every provider burnrate knows. A new provider is its folder, its config schema entry and one line here. */
export const PROVIDERS: readonly Provider[] = [focus, demo, aws, gcp, azure, kubernetes, prometheus];

/** The cloud console's page of a resource, from the provider whose resource it is; undefined where none has one. */
export function consoleLinkOf(target: ConsoleTarget): InstanceLink | undefined {
  for (const provider of PROVIDERS) {
    const link = provider.consoleLink?.(target);
    if (link) return link;
  }
  return undefined;
}

/** A machine the bill charges: its id and, where the bill gives one, its region. */
export interface BilledMachine {
  id: string;
  region: string | null;
}

/**
 * Whether a billed machine no inventory listed could be one of the machines of the inventory
 * entries that could not be read: one of their provider's (told by the id's shape) and, where an
 * entry names regions and the bill gives one, in one of them. A provider that tells no ids of its
 * own rules none out, nor does a source no entry is named as. Any other machine is judged as usual (gone when no inventory lists it).
 */
export function unreadCouldList(
  entries: readonly GpuInventorySourceConfig[],
  unread: readonly UnreadInventory[],
): (machine: BilledMachine) => boolean {
  const sources = new Set(unread.map((u) => u.source));
  const unreadEntries = entries.filter((entry) => sources.has(inventorySourceName(entry)));
  // A source no entry is named as cannot be asked what it lists: nothing is ruled out.
  const named = new Set(unreadEntries.map(inventorySourceName));
  const unnamed = [...sources].some((source) => !named.has(source));
  return (machine) =>
    unnamed ||
    unreadEntries.some((entry) => {
      const provider = PROVIDERS.find((p) => p.configTypes.inventory?.includes(entry.type));
      const regions = 'regions' in entry ? entry.regions : null;
      const ownId = !provider?.ownsMachine || provider.ownsMachine(machine.id);
      return ownId && (!regions || !machine.region || regions.includes(machine.region));
    });
}

/** What Stop does to an instance where its provider says it is not a plain stop (Azure deallocates). */
export function stopWordingOf(instanceId: string): StopWording | undefined {
  for (const provider of PROVIDERS) {
    const wording = provider.stopWording?.(instanceId);
    if (wording) return wording;
  }
  return undefined;
}

/** The provider that reads a `sources` entry of this type. */
function providerOfSource(type: SourceConfig['type']): Provider {
  const provider = PROVIDERS.find((p) => p.configTypes.sources?.includes(type) && p.sources);
  if (!provider) throw new Error(`no provider reads sources of type ${type}`);
  return provider;
}

/** Ready clients' settings instead of the environment's (tests, embedding). */
export interface SourceOverrides {
  /** An auth client for the Google APIs instead of Application Default Credentials. */
  googleAuth?: GoogleEndpoint['authClient'];
}

/** Spend and budget sources from burnrate.yml; `env` only says where Google's endpoints are (never secrets). */
export function buildSources(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
  overrides: SourceOverrides = {},
): Required<BuiltSources> {
  const built: Required<BuiltSources> = { spend: [], budgets: [], anomalies: [] };
  for (const source of config.sources) {
    const one = providerOfSource(source.type).sources!(source, { config, env, google: overrides.googleAuth });
    built.spend.push(...one.spend);
    built.budgets.push(...one.budgets);
    built.anomalies.push(...(one.anomalies ?? []));
  }
  return built;
}

/** The GPU fleet the first `sources` entry that brings one builds (the demo organisation's); undefined when none does. */
export function sourceFleet(config: Config): ProviderFleet | undefined {
  for (const source of config.sources) {
    const provider = PROVIDERS.find((p) => p.fleet && p.configTypes.sources?.includes(source.type));
    if (provider) return provider.fleet!(source, config);
  }
  return undefined;
}

/** A chat button that acts through provider ports. */
export interface PortButton {
  id: string;
  ports?: readonly ActionPortName[];
}

/**
 * Every cloud permission the providers' sources and inventories use, then, per provider, the
 * permissions its action ports call with, one line per permission naming every button that uses it.
 */
export function providerPermissions(buttons: readonly PortButton[], providers: readonly Provider[] = PROVIDERS): PermissionNeed[] {
  return providers.flatMap((provider) => {
    const users = new Map<string, string[]>();
    for (const button of buttons)
      for (const port of button.ports ?? [])
        for (const permission of provider.portPermissions?.[port] ?? [])
          users.set(permission, [...(users.get(permission) ?? []), button.id]);
    const cloud = provider.id as PermissionNeed['cloud'];
    return [
      ...(provider.permissions ?? []),
      ...[...users].map(
        ([permission, ids]): PermissionNeed => ({
          cloud,
          permission,
          resource: '*',
          usedBy: `chat button${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`,
          when: 'to act from chat (actions.enabled: true)',
        }),
      ),
    ];
  });
}

/** Every Kubernetes RBAC rule the providers declare. */
export function providerKubeRules(): KubeRule[] {
  return PROVIDERS.flatMap((provider) => provider.kubeRules ?? []);
}
