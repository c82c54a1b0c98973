import type { TrackedReviewLine } from '../../domain/review.js';

/**
 * The estimated monthly saving of a line's decision: move to spot saves the line's spot figure
 * (the waste diagnosis's, the one the line showed) or else its spot recommendation's; right-size saves what its
 * right-size recommendation says (null: not estimated without one); still needed, not ours and no
 * answer save nothing.
 */
export function decisionSaving(line: TrackedReviewLine): number | null {
  const recommended = (kind: 'right-size' | 'spot') => line.recommendations.find((r) => r.kind === kind)?.monthlySaving;
  switch (line.answer) {
    case 'spot':
      return line.spotSaving ?? recommended('spot') ?? null;
    case 'right-size':
      return recommended('right-size') ?? null;
    default:
      return 0;
  }
}
