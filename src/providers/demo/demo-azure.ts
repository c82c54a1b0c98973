import type { Lifecycle, RunPattern, WorkloadKind } from './demo-instance.js';

/**
 * The demo organisation's Azure GPU VMs: capacity found on Azure when AWS had none. Each is known by
 * its resource id in lower case, as the Azure inventory keys a VM and the bill names it, so Stop
 * shows what it does on Azure (it deallocates) and the bill prices it.
 */

/** The enterprise agreement the Azure subscriptions bill to, and the teams' subscriptions. */
export const DEMO_AZURE = {
  billing: 'acme-ea-7120433',
  subscriptions: {
    vision: '0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17',
    research: '6f1d2c84-93ab-4e05-b7d2-5a0c9e3f1b64',
  },
} as const;

/** One demo VM, as the fleet's templates need it (the fleet adds provider, owner and team tag). */
export interface DemoAzureVm {
  key: string;
  name: string;
  subscription: string;
  resourceGroup: string;
  region: string;
  instanceType: string;
  lifecycle: Lifecycle;
  workload: WorkloadKind;
  /** The team tag's value. */
  team: string;
  pattern: RunPattern;
}

/** A VM's resource id in lower case. */
export function demoAzureVmId(vm: Pick<DemoAzureVm, 'subscription' | 'resourceGroup' | 'name'>): string {
  return `/subscriptions/${vm.subscription}/resourceGroups/${vm.resourceGroup}/providers/Microsoft.Compute/virtualMachines/${vm.name}`.toLowerCase();
}

export const DEMO_AZURE_VMS: readonly DemoAzureVm[] = [
  // A labelling box in East US, left on since its last batch: vision's idle Azure VM at any hour.
  {
    key: 'cv-azure-t4',
    name: 'cv-label-t4',
    subscription: DEMO_AZURE.subscriptions.vision,
    resourceGroup: 'cv-labeling',
    region: 'eastus',
    instanceType: 'Standard_NC4as_T4_v3',
    lifecycle: 'on-demand',
    workload: 'training',
    team: 'vision',
    pattern: { kind: 'always', activity: 'idle' },
  },
  // Spot T4s for ml-research's evaluation jobs in West Europe.
  {
    key: 'res-azure-t4',
    name: 'research-eval-t4',
    subscription: DEMO_AZURE.subscriptions.research,
    resourceGroup: 'research-eval',
    region: 'westeurope',
    instanceType: 'Standard_NC4as_T4_v3',
    lifecycle: 'spot',
    workload: 'training',
    team: 'ml-research',
    pattern: {
      kind: 'runs',
      cycleDays: 4,
      phaseDays: 1,
      gapHours: [6, 20],
      skipChance: 0.2,
      idleTailChance: 0.3,
      idleTailHours: [2, 8],
    },
  },
];
