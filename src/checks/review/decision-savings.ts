import type { TrackedReviewLine } from '../../domain/review.js';

/**
 * The estimated monthly saving of a line's decision: move to spot saves the line's spot
 * recommendation or else the catalog spot discount on last month's cost; right-size saves what its
 * right-size recommendation says (null: not estimated without one); still needed, not ours and no
 * answer save nothing.
 */
export function decisionSaving(line: TrackedReviewLine): number | null {
  const recommended = (kind: 'right-size' | 'spot') => line.recommendations.find((r) => r.kind === kind)?.monthlySaving;
  switch (line.answer) {
    case 'spot':
      return recommended('spot') ?? line.spotSaving ?? null;
    case 'right-size':
      return recommended('right-size') ?? null;
    default:
      return 0;
  }
}
