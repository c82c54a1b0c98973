/** Names as a sentence offers them: "A", "A or B", "A, B or C". */
export function oneOf(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
