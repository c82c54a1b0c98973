import { KUBE_ACTION_RULES } from '../providers/kubernetes/workload-handle.js';
import type { KubeRule } from '../domain/kubernetes.js';
import { KUBE_READ_RULES } from '../providers/kubernetes/kube-permissions.js';

/** Every RBAC rule burnrate's Kubernetes code declares: what it lists, and what its actions patch. */
export function declaredKubeRules(): KubeRule[] {
  return [...KUBE_READ_RULES, ...KUBE_ACTION_RULES];
}
