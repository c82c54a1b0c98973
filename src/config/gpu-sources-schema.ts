import { AWS_REGIONS } from './aws-regions.js';
import { azureInventorySchema, azureMonitorMetricsSchema } from './azure-config.js';
import { cloudMonitoringMetricsSchema, gceInventorySchema } from './gcp-config.js';
import { z } from 'zod';

// The `gpu.metrics` and `gpu.inventory` keys of burnrate.yml: where GPU metrics come from and
// where the GPU instances they belong to are listed (with their type, price, tags and region).
// Secrets are never in the file: a Prometheus bearer token is named by its environment variable.

const text = (what: string) =>
  z
    .string({ error: `expected ${what}` })
    .trim()
    .min(1, { error: `expected ${what}` });

const awsRegion = text('an AWS region such as us-east-1').refine((region) => AWS_REGIONS.includes(region), {
  error: (issue) => `expected an AWS region such as us-east-1 or eu-west-1 (got "${String(issue.input)}")`,
});

const environmentName = z
  .string({ error: 'expected the name of an environment variable, e.g. PROMETHEUS_TOKEN' })
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
    error:
      'expected the NAME of the environment variable that holds the token (letters, digits and _, e.g. PROMETHEUS_TOKEN), never the token itself',
  });

const httpUrl = text('a URL such as http://prometheus.monitoring:9090').refine(
  (raw) => {
    try {
      const url = new URL(raw);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
    } catch {
      return false;
    }
  },
  {
    error:
      'expected an http(s) URL without credentials, e.g. http://prometheus.monitoring:9090 (a token goes in bearerTokenEnv or bearerTokenFile)',
  },
);

/** Managed Service for Prometheus' API root: /v1/projects/<project id or number>/location/<location>/prometheus. */
const GOOGLE_PROMETHEUS_PATH = /^\/v1\/projects\/[a-z0-9][-a-z0-9]*\/location\/[a-z0-9-]+\/prometheus\/?$/;

export const prometheusMetricsSchema = z
  .strictObject({
    type: z.literal('prometheus'),
    id: text('a source id').optional(),
    /** Base URL of Prometheus (or Thanos, Mimir, VictoriaMetrics): the part before /api/v1. */
    url: httpUrl,
    /** Name of the environment variable holding a bearer token; the token itself never goes in the file. */
    bearerTokenEnv: environmentName.optional(),
    /** A file holding a bearer token, read again whenever it changes (a projected service-account token rotates). */
    bearerTokenFile: text('the path of a file holding the bearer token').optional(),
    /** Amazon Managed Service for Prometheus: requests signed with SigV4 (service aps) by the default AWS credentials. */
    sigv4: z.strictObject({ region: awsRegion }, { error: 'expected sigv4: { region: <the workspace region> }' }).optional(),
    /** Google Cloud Managed Service for Prometheus: an access token from Application Default Credentials (scope monitoring.read). */
    google: z.literal(true, { error: 'expected google: true (Application Default Credentials), or no google key' }).optional(),
    /** A private CA for an https url, trusted beside the system's: PEM text, or a file holding it. */
    ca: text('PEM text beginning -----BEGIN CERTIFICATE-----')
      .refine((pem) => pem.includes('-----BEGIN CERTIFICATE-----'), { error: 'expected PEM text beginning -----BEGIN CERTIFICATE-----' })
      .optional(),
    caFile: text('the path of a PEM file of CA certificates').optional(),
    /** Per HTTP request. */
    timeoutSeconds: z
      .number({ error: 'expected seconds' })
      .positive({ error: 'expected seconds above 0' })
      .max(600, { error: 'expected at most 600 seconds' })
      .default(60),
  })
  .refine((source) => [source.bearerTokenEnv, source.bearerTokenFile, source.sigv4, source.google].filter(Boolean).length <= 1, {
    error: 'expected one way to authenticate: bearerTokenEnv, bearerTokenFile, sigv4 or google, not several',
  })
  .refine((source) => !source.google || GOOGLE_PROMETHEUS_PATH.test(new URL(source.url).pathname), {
    error:
      "expected google: true with the url of the project's Prometheus API, https://monitoring.googleapis.com/v1/projects/PROJECT_ID/location/global/prometheus (the part before /api/v1)",
    path: ['url'],
  })
  .refine((source) => !(source.ca && source.caFile), { error: 'expected ca or caFile, not both' })
  .refine((source) => !(source.ca || source.caFile) || source.url.startsWith('https:'), {
    error: 'expected an https url with ca or caFile (a CA only checks TLS)',
  });

export const cloudwatchMetricsSchema = z.strictObject({
  type: z.literal('cloudwatch'),
  id: text('a source id').optional(),
  region: awsRegion,
  /** Where the CloudWatch agent publishes nvidia_smi_* metrics. */
  namespace: text('a CloudWatch namespace such as CWAgent').default('CWAgent'),
});

export const gpuMetricsSourceSchema = z.discriminatedUnion(
  'type',
  [prometheusMetricsSchema, cloudwatchMetricsSchema, cloudMonitoringMetricsSchema, azureMonitorMetricsSchema],
  {
    error: 'expected a GPU metrics source with type prometheus, cloudwatch, cloud-monitoring or azure-monitor',
  },
);

/** The regions an AWS inventory reads, each once. */
const awsRegions = z
  .array(awsRegion, { error: 'expected a list of AWS regions, e.g. [us-east-1, eu-west-1]' })
  .min(1, { error: 'expected at least one region, e.g. [us-east-1]' })
  .transform((regions) => [...new Set(regions)]);

export const ec2InventorySchema = z.strictObject({
  type: z.literal('ec2'),
  /** Regions whose GPU instances burnrate lists (DescribeInstances) and may stop. */
  regions: awsRegions,
});

/**
 * SageMaker Studio's apps on GPU instances (JupyterLab, Code Editor and Studio Classic kernel
 * gateways), with the domain's and space's idle shutdown; Studio publishes no GPU metrics for them.
 */
export const sagemakerStudioInventorySchema = z.strictObject({
  type: z.literal('sagemaker-studio'),
  /** Regions whose Studio domains burnrate reads (ListDomains, ListApps). */
  regions: awsRegions,
  /** Only these domains (their ids, d-...); absent: every domain of the regions. */
  domains: z
    .array(
      text('a SageMaker domain id such as d-abcd1234efgh').regex(/^d-[a-z0-9]+$/, {
        error: 'expected a SageMaker domain id such as d-abcd1234efgh (the Domain ID in the SageMaker console, not its name)',
      }),
      { error: 'expected a list of SageMaker domain ids, e.g. [d-abcd1234efgh]' },
    )
    .min(1, { error: 'expected at least one domain id, or no domains key for every domain' })
    .optional(),
});

const labelKey = text('a Kubernetes label key such as team').regex(
  /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/,
  {
    error: 'expected a Kubernetes label key such as team or example.com/owner',
  },
);

/**
 * One Kubernetes cluster: its GPU workloads (not its nodes) are the inventory. Credentials come
 * from the kubeconfig or, inside the cluster, the service account; never from this file.
 */
export const kubernetesInventorySchema = z.strictObject({
  type: z.literal('kubernetes'),
  /** The cluster's name in alerts, findings and audit. */
  cluster: text('a cluster name such as gpu-prod').regex(/^[A-Za-z0-9][-A-Za-z0-9_.]{0,62}$/, {
    error: 'expected a cluster name of letters, digits, - _ and . such as gpu-prod',
  }),
  /** A kubeconfig file; absent: $KUBECONFIG, ~/.kube/config, then the in-cluster service account. */
  kubeconfig: text('the path of a kubeconfig file').optional(),
  context: text('a kubeconfig context').optional(),
  /** The namespace label naming its team (a team id or one of a team's `match` names), where teams[].gpu.namespaces does not. */
  teamLabel: labelKey.default('team'),
  /** The pod label or annotation naming the person who runs it (a chat user id or an email). */
  ownerKey: labelKey.default('owner'),
});

export const gpuInventorySourceSchema = z.discriminatedUnion(
  'type',
  [ec2InventorySchema, gceInventorySchema, azureInventorySchema, kubernetesInventorySchema, sagemakerStudioInventorySchema],
  {
    error: 'expected a GPU inventory with type ec2, gce, azure, kubernetes or sagemaker-studio',
  },
);

/** A Kubernetes namespace name (RFC 1123 label). */
export const namespaceName = z.string({ error: 'expected a Kubernetes namespace name' }).regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, {
  error: 'expected a Kubernetes namespace name (lower-case letters, digits and -), e.g. ray-llm',
});

export type GpuMetricsSourceConfig = z.output<typeof gpuMetricsSourceSchema>;
export type GpuInventorySourceConfig = z.output<typeof gpuInventorySourceSchema>;
export type KubernetesInventoryConfig = z.output<typeof kubernetesInventorySchema>;
export type SagemakerStudioInventoryConfig = z.output<typeof sagemakerStudioInventorySchema>;
