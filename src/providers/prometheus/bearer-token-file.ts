import { readFile, stat } from 'node:fs/promises';
import { BurnrateError } from '../../domain/errors.js';
import type { PrometheusAuth } from './prometheus-auth.js';

/**
 * A bearer token read from a file and read again whenever the file changes: Kubernetes projected
 * service-account tokens (and Vault agents) rotate the file under a running pod. A stat per
 * request is cheap beside the query; the token itself never goes into a message.
 */
export function bearerTokenFile(path: string): PrometheusAuth {
  let seen: { version: string; token: string } | undefined;
  return {
    async headers() {
      let version: string;
      try {
        // Projected volumes swap a symlink, so the inode changes even when the mtime resolution hides it.
        const info = await stat(path);
        version = `${info.ino}:${info.mtimeMs}:${info.size}`;
        if (seen?.version !== version) seen = { version, token: (await readFile(path, 'utf8')).trim() };
      } catch (error) {
        throw new BurnrateError(
          'burnrate_prometheus_token_file_unreadable',
          `The Prometheus bearer token file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}).`,
          'Check that the file exists and that burnrate may read it (in Kubernetes: the projected volume is mounted at that path).',
          1,
        );
      }
      if (!seen.token)
        throw new BurnrateError(
          'burnrate_prometheus_token_file_empty',
          `The Prometheus bearer token file ${path} is empty.`,
          'Check what writes the token into that file (a projected service-account token, a Vault agent).',
          1,
        );
      return { authorization: `Bearer ${seen.token}` };
    },
    refusedHint: `Check that the token in ${path} is allowed to query this Prometheus (its audience and role), and that any proxy in front of it passes the Authorization header on.`,
  };
}
