// File exports arrive in parts: a billing period is the sum of several files, often imported one at
// a time. An import therefore replaces only what it imports again (the same file content, the same
// file name in the same export, or a whole export imported complete), never the other parts.

export interface DeletedParts {
  rows: number;
  /** File names of the earlier parts replaced, sorted; rows of imports from before parts were tracked have none. */
  parts: string[];
}
