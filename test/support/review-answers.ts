/**
 * The answer buttons a review line should carry, worked out from the line as a reviewer would:
 * an instance on demand gets all four; one on spot or under a commitment no Move to spot;
 * storage, traffic and managed services only Still needed and Not ours.
 */
export function expectedAnswerLabels(line: { category: string; pricing: string | null; instanceType: string | null }): string[] {
  const compute = line.instanceType !== null || line.category === 'Compute';
  if (!compute) return ['Still needed', 'Not ours'];
  const spot = line.pricing !== 'Dynamic' && line.pricing !== 'Committed';
  return ['Still needed', 'Right-size', ...(spot ? ['Move to spot'] : []), 'Not ours'];
}
