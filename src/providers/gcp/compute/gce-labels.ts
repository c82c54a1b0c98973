/**
 * Compute Engine label keys are lower-case letters, digits, `_` and `-`: `burnrate:protect` cannot
 * be one. A VM says it with `burnrate-protect` (or `burnrate_protect`), read as the tag the
 * shared rules know (`burnrate:protect`, `burnrate:workload`); other labels (team, owner, ...)
 * are read as they are, like EC2 tags.
 */
export function tagsOfLabels(labels: Readonly<Record<string, string>> | null | undefined): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels ?? {})) {
    tags[key] = value ?? '';
    const burnrate = /^burnrate[-_](.+)$/.exec(key);
    if (burnrate) tags[`burnrate:${burnrate[1]!.replace(/_/g, '-')}`] = value ?? '';
  }
  return tags;
}

/** The label a VM is protected with, for messages and docs. */
export const GCE_PROTECT_LABEL = 'burnrate-protect';
