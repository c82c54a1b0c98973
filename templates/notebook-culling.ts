import type { GpuFinding } from '../src/domain/gpu-finding.js';

/**
 * What a notebook platform's own idle culling is set to, for an idle notebook server's alert: users
 * ask why burnrate's idea of idle and the platform's differ. Null for anything but a notebook server.
 */
export function notebookCullingLine(f: Pick<GpuFinding, 'notebook'>): string | null {
  if (!f.notebook) return null;
  const defer = f.notebook.culls === false ? '' : '; `idle.notebooks: defer` in burnrate.yml leaves idle notebooks to it';
  return `Notebook server: ${f.notebook.culling}${defer}.`;
}
