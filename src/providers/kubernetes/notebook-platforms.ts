import type { NotebookPlatform } from '../../domain/gpu-inventory.js';
import type { KubeflowCulling, WorkloadRef } from '../../domain/kubernetes.js';

// Notebook platforms cull idle notebook servers themselves: Kubeflow's notebook controller stops a
// Notebook whose kernels have done nothing for CULL_IDLE_TIME minutes (when ENABLE_CULLING is on),
// JupyterHub's idle culler (a hub service, `cull.timeout` in Zero to JupyterHub's values) stops a
// user's server. burnrate says what it can read of them, so a user sees why the two ideas of idle
// differ, and a team may leave notebooks to the platform (`idle.notebooks: defer`).

/** The controller's env, as Kubeflow's manifests set it on the notebook-controller Deployment. */
const KUBEFLOW_ENV = { enabled: 'ENABLE_CULLING', idleMinutes: 'CULL_IDLE_TIME' } as const;
/** Kubeflow's own default for CULL_IDLE_TIME, in minutes (a day). */
const KUBEFLOW_DEFAULT_IDLE_MINUTES = 1440;

interface DeploymentObject {
  metadata?: { name?: string };
  spec?: { template?: { spec?: { containers?: { env?: { name?: string; value?: string; valueFrom?: unknown }[] }[] } } };
}

/** Kubeflow's culling as its notebook controller's Deployment sets it; undefined without one. */
export function kubeflowCullingOf(deployments: readonly DeploymentObject[]): KubeflowCulling | undefined {
  const controller = deployments.find(
    (d) => /(^|-)notebook-controller(-|$)/.test(d.metadata?.name ?? '') && !/odh-/.test(d.metadata?.name ?? ''),
  );
  if (!controller) return undefined;
  const env = (controller.spec?.template?.spec?.containers ?? []).flatMap((c) => c.env ?? []);
  const read = (name: string): string | null | undefined => {
    const entry = env.find((e) => e.name === name);
    if (!entry) return undefined; // not set: the controller's default
    return entry.value ?? null; // from a ConfigMap or Secret: not read
  };
  const enabled = read(KUBEFLOW_ENV.enabled);
  const minutes = read(KUBEFLOW_ENV.idleMinutes);
  const parsed = Number(minutes);
  return {
    enabled: enabled === undefined ? false : enabled === null ? null : enabled.trim().toLowerCase() === 'true',
    idleMinutes: minutes === undefined ? KUBEFLOW_DEFAULT_IDLE_MINUTES : minutes !== null && parsed > 0 ? parsed : null,
  };
}

/**
 * The notebook platform a workload's pods belong to, with what its culling is set to: a Kubeflow
 * Notebook (its own kind, or pods labelled `notebook-name`), or a JupyterHub user server (pods
 * labelled `component: singleuser-server`). Undefined for anything else.
 */
export function notebookPlatformOf(
  ref: WorkloadRef,
  labels: Readonly<Record<string, string>>,
  kubeflow: KubeflowCulling | undefined,
): NotebookPlatform | undefined {
  if (ref.kind === 'Notebook' || labels['notebook-name'] !== undefined) return { platform: 'kubeflow', ...kubeflowWords(kubeflow) };
  if (labels['component'] === 'singleuser-server')
    return {
      platform: 'jupyterhub',
      culling: "JupyterHub's idle culler stops idle user servers as the hub sets it (cull.timeout), which burnrate cannot read",
      culls: null,
    };
  return undefined;
}

function kubeflowWords(culling: KubeflowCulling | undefined): Pick<NotebookPlatform, 'culling' | 'culls'> {
  if (!culling) return { culling: "Kubeflow's notebook culler: its controller was not found, so its setting is unknown", culls: null };
  if (culling.enabled === false)
    return {
      culling: `Kubeflow's notebook culler is off (${KUBEFLOW_ENV.enabled} is not true): nothing stops it but people`,
      culls: false,
    };
  const after =
    culling.idleMinutes === null
      ? 'after the idle time its ConfigMap sets'
      : `after ${culling.idleMinutes} minutes without kernel activity`;
  if (culling.enabled === null)
    return { culling: `Kubeflow's notebook culler, if its ConfigMap turns it on, stops it ${after}`, culls: null };
  return { culling: `Kubeflow's notebook culler stops it ${after} (${KUBEFLOW_ENV.idleMinutes})`, culls: true };
}
