import { KubeConfig } from '@kubernetes/client-node';

/** How burnrate reaches one cluster: a kubeconfig file and context, or (by default) where it runs. */
export interface ClusterConnection {
  name: string;
  /** A kubeconfig file; absent: $KUBECONFIG, ~/.kube/config, then the in-cluster service account. */
  kubeconfig?: string | undefined;
  /** The kubeconfig context to use; absent: its current context. */
  context?: string | undefined;
}

/** The client configuration of one cluster; credentials stay in the kubeconfig or the service account. */
export function kubeConfigOf(connection: ClusterConnection): KubeConfig {
  const config = new KubeConfig();
  if (connection.kubeconfig) config.loadFromFile(connection.kubeconfig);
  else config.loadFromDefault();
  if (connection.context) config.setCurrentContext(connection.context);
  return config;
}
