import { MAX_DEPTH } from './check-yaml.js';
import { yamlLibrary } from './yaml-library.js';

/**
 * Leading indentation and block indicators (`- `, `? `, `: `) wider than this mean block nesting
 * far past MAX_DEPTH. Each level of block nesting takes at least one more column, so below this
 * the parser recurses at most a few hundred levels, well within the stack.
 */
const MAX_LEAD_COLUMNS = 2 * MAX_DEPTH;

/**
 * The line where the text nests past what is safe to hand to the YAML parser, or undefined.
 * The parser recurses once per level: 100,000 nested brackets cost it seconds and hundreds of
 * megabytes, and a stack overflow inside it can take the whole process down. These scans are
 * linear and recurse not at all; the document check then applies the exact MAX_DEPTH.
 */
export function lineNestedTooDeep(text: string): number | undefined {
  return lineIndentedTooDeep(text) ?? lineBracketedTooDeep(text);
}

function lineIndentedTooDeep(text: string): number | undefined {
  let line = 1;
  let lead = 0;
  let leading = true;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\n') {
      line++;
      lead = 0;
      leading = true;
      continue;
    }
    if (!leading) continue;
    const next = text[i + 1];
    const indicator = (char === '-' || char === '?' || char === ':') && (next === ' ' || next === '\n' || next === undefined);
    if (char === ' ' || indicator) {
      if (++lead > MAX_LEAD_COLUMNS) return line;
    } else leading = false;
  }
  return undefined;
}

/** Flow brackets ([ and {) nested past MAX_DEPTH, by the lexer, which knows quotes and comments. */
function lineBracketedTooDeep(text: string): number | undefined {
  let brackets = 0;
  for (let i = 0; i < text.length && brackets <= MAX_DEPTH; i++) if (text[i] === '[' || text[i] === '{') brackets++;
  if (brackets <= MAX_DEPTH) return undefined; // too few to nest that deep: skip lexing
  let depth = 0;
  let line = 1;
  for (const token of new (yamlLibrary().Lexer)().lex(text)) {
    if (token === '[' || token === '{') depth++;
    else if (token === ']' || token === '}') depth--;
    else if (token.includes('\n')) line += token.split('\n').length - 1;
    if (depth > MAX_DEPTH) return line;
  }
  return undefined;
}
