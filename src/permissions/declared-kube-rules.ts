import type { KubeRule } from '../domain/kubernetes.js';
import { providerKubeRules } from '../providers/registry.js';

/** Every RBAC rule burnrate's Kubernetes code declares: what it lists, and what its actions patch. */
export function declaredKubeRules(): KubeRule[] {
  return providerKubeRules();
}
