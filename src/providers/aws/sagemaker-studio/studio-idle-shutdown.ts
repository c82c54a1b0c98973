import type { IdleSettings } from '@aws-sdk/client-sagemaker';
import type { NotebookPlatform } from '../../../domain/gpu-inventory.js';

// SageMaker Studio's own idle shutdown: a domain turns it on per app type (JupyterLab, Code Editor)
// with a default timeout and the range a user may choose; a space's own timeout overrides the
// default within that range. When it fires, Studio deletes the app; the space and its storage stay.

/** A setting burnrate could not read, with the IAM action it was denied. */
export interface Unreadable {
  denied: string;
}

/** The app types Studio's idle shutdown covers; Studio Classic's kernel gateways it does not. */
const COVERED = new Set(['JupyterLab', 'CodeEditor']);

const SHUTDOWN = 'SageMaker Studio idle shutdown';
const DELETES = 'Studio deletes the app; the space and its storage stay';

/**
 * What Studio's idle shutdown is set to for one app, in the words of the idle alert: off ("nothing
 * stops it but people"), on ("stops it after 60 minutes without activity"), or unknown where the
 * setting could not be read (culls null: `idle.notebooks: defer` still defers; the alert names the missing permission).
 */
export function studioIdleShutdown(
  appType: string,
  domain: IdleSettings | undefined | Unreadable,
  spaceMinutes: number | undefined | Unreadable,
): Pick<NotebookPlatform, 'platform' | 'culling' | 'culls'> {
  const platform = 'sagemaker-studio' as const;
  if (!COVERED.has(appType))
    return {
      platform,
      culling: `${SHUTDOWN} covers JupyterLab and Code Editor apps only; this ${appType} app stops when a lifecycle configuration or a person stops it, which burnrate cannot read`,
      culls: null,
    };
  if (domain && 'denied' in domain)
    return {
      platform,
      culling: `${SHUTDOWN}: unknown, burnrate may not read the domain's setting (allow ${domain.denied})`,
      culls: null,
    };
  if (domain?.LifecycleManagement !== 'ENABLED')
    return { platform, culling: `${SHUTDOWN} is off: nothing stops it but people`, culls: false };
  const minutes = typeof spaceMinutes === 'number' ? within(spaceMinutes, domain) : domain.IdleTimeoutInMinutes;
  const after = minutes !== undefined ? `after ${minutes} minutes without activity` : 'after the idle time Studio sets';
  const unread = typeof spaceMinutes === 'object' ? ` (the space's own timeout could not be read: allow ${spaceMinutes.denied})` : '';
  return { platform, culling: `${SHUTDOWN} stops it ${after}: ${DELETES}${unread}`, culls: true };
}

/** A space's own timeout, kept within the range the domain lets users choose. */
function within(minutes: number, domain: IdleSettings): number {
  const low = domain.MinIdleTimeoutInMinutes ?? minutes;
  const high = domain.MaxIdleTimeoutInMinutes ?? minutes;
  return Math.min(Math.max(minutes, low), high);
}
