import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { EC2Client } from '@aws-sdk/client-ec2';
import { Ec2InstancePort } from '../actions/instance/ec2-instance-port.js';
import type { InstanceActionPort } from '../actions/instance/instance-port.js';
import { metricsSourceId, type GpuMetricsSourceConfig } from '../config/gpu-sources-schema.js';
import type { Config } from '../config/schema.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { GpuMetricsSource } from '../domain/gpu-metrics.js';
import { teamResolver } from '../domain/ownership.js';
import { BurnrateError } from '../errors.js';
import { CloudWatchGpuSource } from './cloudwatch/cloudwatch-source.js';
import { Ec2GpuInventory } from './ec2/ec2-gpu-inventory.js';
import { PrometheusGpuSource } from './prometheus/prometheus-source.js';
import { RollingWindowMetrics } from './rolling-window-metrics.js';

/** Attempts per AWS call, throttling retries included. */
const AWS_MAX_ATTEMPTS = 3;

/** CloudWatch agent datapoints land a minute or two after their period: read the last 3 minutes again. */
const CLOUDWATCH_OVERLAP_SECONDS = 180;

/** The GPU parts `gpu.metrics` and `gpu.inventory` describe. */
export interface ConfiguredGpu {
  metrics: GpuMetricsSource[];
  inventory(): Promise<GpuInstance[]>;
  /** The port that stops this instance (its provider and region), from the latest inventory. */
  portOf(instance: GpuInstance): InstanceActionPort | undefined;
}

/** One AWS SDK client per region and service, shared by inventory, metrics and stops. */
function perRegion<T>(make: (region: string) => T): (region: string) => T {
  const made = new Map<string, T>();
  return (region) => {
    let client = made.get(region);
    if (!client) made.set(region, (client = make(region)));
    return client;
  };
}

/**
 * Metrics sources, inventory and stop ports from burnrate.yml. AWS clients use the SDK's own
 * credential chain and endpoint settings (AWS_PROFILE, roles, AWS_ENDPOINT_URL_*); a Prometheus
 * token is read from the environment variable the config names. Every metrics source keeps its
 * window in memory and fetches only new samples (RollingWindowMetrics).
 */
export function buildConfiguredGpu(config: Config, env: NodeJS.ProcessEnv): ConfiguredGpu | undefined {
  const { metrics, inventory } = config.gpu;
  if (metrics.length === 0 && inventory.length === 0) return undefined;
  const ec2 = perRegion((region) => new EC2Client({ region, maxAttempts: AWS_MAX_ATTEMPTS }));
  const cloudwatch = perRegion((region) => new CloudWatchClient({ region, maxAttempts: AWS_MAX_ATTEMPTS }));
  const stopPorts = perRegion((region) => new Ec2InstancePort({ region, client: ec2(region) }));
  const resolveTeam = teamResolver(config.teams);
  const inventories = inventory.map((source) => new Ec2GpuInventory({ regions: source.regions, tagKeys: config.ownership.tagKeys, resolveTeam, clientFor: ec2 }));

  return {
    metrics: metrics.map((source) => metricsSourceOf(source, env, cloudwatch)),
    inventory: async () => (await Promise.all(inventories.map((i) => i.list()))).flat(),
    portOf: (instance) => (instance.provider === 'aws' ? stopPorts(instance.region) : undefined),
  };
}

function metricsSourceOf(source: GpuMetricsSourceConfig, env: NodeJS.ProcessEnv, cloudwatch: (region: string) => CloudWatchClient): GpuMetricsSource {
  const id = metricsSourceId(source);
  if (source.type === 'cloudwatch')
    return new RollingWindowMetrics(new CloudWatchGpuSource({ id, region: source.region, namespace: source.namespace, client: cloudwatch(source.region) }), {
      overlapSeconds: CLOUDWATCH_OVERLAP_SECONDS,
    });
  return new RollingWindowMetrics(new PrometheusGpuSource({ id, url: source.url, bearerToken: bearerToken(id, source.bearerTokenEnv, env), timeoutMs: source.timeoutSeconds * 1000 }));
}

function bearerToken(id: string, name: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (!name) return undefined;
  const token = env[name]?.trim();
  if (!token)
    throw new BurnrateError(
      'burnrate_prometheus_token_missing',
      `The GPU metrics source "${id}" reads its bearer token from ${name}, which is not set.`,
      `Set ${name} in burnrate's environment, or remove bearerTokenEnv if this Prometheus needs no token.`,
    );
  return token;
}
