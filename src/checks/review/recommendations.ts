import type { LineRecommendation, ReviewLine } from '../../domain/review.js';

/**
 * Right-size and spot evidence for a review line. The seam the recommendation rules plug into
 * (GPU-memory high-water marks against the catalog, checkpointed training on on-demand capacity);
 * until they do, a line carries no recommendation and the review shows the catalog spot saving only.
 */
export function recommendationsFor(_line: ReviewLine): LineRecommendation[] {
  return [];
}
