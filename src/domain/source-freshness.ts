export interface SourceFreshness {
  source: string;
  dataThrough: string | null;
  refreshedAt: string;
}

export interface SourceFailure {
  source: string;
  failedAt: string;
  error: string;
}
