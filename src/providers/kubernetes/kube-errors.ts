import { BurnrateError } from '../../domain/errors.js';

/**
 * A Kubernetes API failure as a message for people: what was refused and what to change. The
 * API server's Status message is kept (it names the resource and the service account); a stack
 * trace or a token never is.
 */
export function explainKubeError(error: unknown, doing: string, cluster: string): BurnrateError {
  if (error instanceof BurnrateError) return error;
  const code = (error as { code?: unknown }).code;
  const message = statusMessage(error);
  switch (code) {
    case 401:
      return new BurnrateError(
        'burnrate_kube_unauthorized',
        `Cluster ${cluster} did not accept burnrate's credentials (${doing}).`,
        'Check the kubeconfig user or the service account token: it may have expired.',
      );
    case 403:
      return new BurnrateError(
        'burnrate_kube_forbidden',
        `Cluster ${cluster} refused to let burnrate ${doing}: ${message}`,
        "Grant the ClusterRole in docs/permissions.md (Kubernetes) to burnrate's service account, or install the Helm chart, which does.",
      );
    case 404:
      return new BurnrateError(
        'burnrate_kube_not_found',
        `Cluster ${cluster}: ${doing}: not found (${message}).`,
        'It may have been deleted or renamed since the alert.',
      );
    case 409:
      return new BurnrateError(
        'burnrate_kube_conflict',
        `Cluster ${cluster}: ${doing}: someone else changed it at the same moment.`,
        'Try again: burnrate reads it afresh.',
      );
    default:
      if (typeof code === 'number')
        return new BurnrateError(
          'burnrate_kube_failed',
          `Cluster ${cluster} answered ${code} to ${doing}: ${message}`,
          'Try again shortly.',
        );
      return new BurnrateError(
        'burnrate_kube_unreachable',
        `Cluster ${cluster} could not be reached (${doing}): ${(error as Error).message ?? String(error)}`,
        "Check the kubeconfig's server address and that burnrate's network can reach the API server.",
      );
  }
}

/** The Status body's message (client-node puts the body in `body`, as text or parsed). */
function statusMessage(error: unknown): string {
  const body = (error as { body?: unknown }).body;
  const parsed = typeof body === 'string' ? safeParse(body) : body;
  const message = (parsed as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : 'no details';
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
