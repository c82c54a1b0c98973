import type { InstanceLifecycle } from '../../ports/instance-port.js';

/** The power states ARM reports in a VM's instance view (`PowerState/<state>`). */
export type AzurePowerState = 'starting' | 'running' | 'stopping' | 'stopped' | 'deallocating' | 'deallocated' | 'unknown';

/** The power state among an instance view's statuses. */
export function powerStateOf(statuses: readonly { code?: string }[] | undefined): AzurePowerState {
  const code = statuses
    ?.find((s) => s.code?.startsWith('PowerState/'))
    ?.code?.slice('PowerState/'.length)
    .toLowerCase();
  switch (code) {
    case 'starting':
    case 'running':
    case 'stopping':
    case 'stopped':
    case 'deallocating':
    case 'deallocated':
      return code;
    default:
      return 'unknown';
  }
}

/**
 * A power state as the instance port's lifecycle. Only a deallocated VM stops billing compute: a VM
 * stopped from inside the OS (or with "power off") is still allocated and billed like a running
 * one, so burnrate treats it as running and deallocating it is what a Stop does.
 */
export function lifecycleOf(state: AzurePowerState): InstanceLifecycle {
  switch (state) {
    case 'starting':
      return 'pending';
    case 'running':
    case 'stopping':
    case 'stopped':
      return 'running';
    case 'deallocating':
      return 'stopping';
    case 'deallocated':
      return 'stopped';
    default:
      return 'unknown';
  }
}

/** Whether the VM's GPUs can send metrics: not when the OS is off, allocated or not. */
export function sendsMetrics(state: AzurePowerState): boolean {
  return state === 'running' || state === 'starting' || state === 'unknown';
}
