import * as k8s from '@kubernetes/client-node';

/**
 * Checks a manifest against the Kubernetes API's own schema as the client library's generated
 * models carry it (V1Deployment's fields, their types, recursively): an unknown or misspelt field,
 * or a value of the wrong type, is an error with its path. Required fields are checked by the
 * caller (the models do not say which are).
 */
export function schemaErrors(manifest: Record<string, unknown>): string[] {
  const model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (!model) return [`${manifest.apiVersion} ${manifest.kind}: not a kind the chart is expected to hold`];
  const errors: string[] = [];
  check(manifest, model, String(manifest.kind), errors);
  return errors;
}

const MODELS: Record<string, string> = {
  'v1/ServiceAccount': 'V1ServiceAccount',
  'v1/ConfigMap': 'V1ConfigMap',
  'v1/Service': 'V1Service',
  'v1/PersistentVolumeClaim': 'V1PersistentVolumeClaim',
  'apps/v1/Deployment': 'V1Deployment',
  'networking.k8s.io/v1/Ingress': 'V1Ingress',
  'policy/v1/PodDisruptionBudget': 'V1PodDisruptionBudget',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'V1ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'V1ClusterRoleBinding',
};

type Attribute = { baseName: string; type: string };

function check(value: unknown, type: string, path: string, errors: string[]): void {
  if (value === null || value === undefined) return;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) return void errors.push(`${path}: expected a list`);
    value.forEach((item, i) => check(item, array[1]!, `${path}[${i}]`, errors));
    return;
  }
  if (type.startsWith('{ [key: string]:')) {
    if (typeof value !== 'object' || Array.isArray(value)) return void errors.push(`${path}: expected a map`);
    const inner = /\]:\s*(.+?);\s*\}$/.exec(type)?.[1] ?? 'any';
    for (const [key, item] of Object.entries(value)) check(item, inner, `${path}.${key}`, errors);
    return;
  }
  const primitive = PRIMITIVES[type];
  if (primitive) {
    if (!primitive(value)) errors.push(`${path}: expected ${type}, got ${JSON.stringify(value)}`);
    return;
  }
  const model = (k8s as unknown as Record<string, { getAttributeTypeMap?: () => Attribute[] }>)[type];
  if (!model?.getAttributeTypeMap) return void errors.push(`${path}: unknown schema type ${type}`);
  if (typeof value !== 'object' || Array.isArray(value)) return void errors.push(`${path}: expected an object (${type})`);
  const fields = new Map(model.getAttributeTypeMap().map((a) => [a.baseName, a.type]));
  for (const [key, item] of Object.entries(value)) {
    const fieldType = fields.get(key);
    if (!fieldType) errors.push(`${path}.${key}: no such field in ${type}`);
    else check(item, fieldType, `${path}.${key}`, errors);
  }
}

const PRIMITIVES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  Date: (v) => typeof v === 'string',
  IntOrString: (v) => typeof v === 'string' || typeof v === 'number',
  any: () => true,
  object: (v) => typeof v === 'object',
};
