/**
 * What one check run changes in its table of findings, whatever the kind of finding: those that
 * open now, those still open (their bodies refreshed) and the ids of those that resolve.
 */
export interface FindingChange<F> {
  opened: F[];
  stillOpen: F[];
  resolved: string[];
}
