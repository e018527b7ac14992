/**
 * Regular expressions people send run inside PostgreSQL, whose engine (Spencer's, a hybrid of
 * DFA and NFA) has no catastrophic backtracking except with back-references. We accept only the
 * subset PostgreSQL and JavaScript read alike and that cannot run away: bounded length, no
 * back-references, no look-around or embedded options, repetition counts up to 255, no POSIX
 * bracket classes. What still costs too much is cut by the statement timeout of list queries.
 */
import { queryError } from './errors.ts';

export const regexMaxLength = 256;

const allowedEscapes = new Set(['d', 'D', 's', 'S', 'w', 'W']);

/** The pattern if it is in the safe subset; a 400 naming `path` otherwise. */
export function checkRegex(pattern: unknown, path: string): string {
  const bad = (message: string) => queryError('invalid_regex', path, message);
  if (typeof pattern !== 'string') throw bad('must be text');
  if (pattern.length > regexMaxLength) throw bad(`must be at most ${regexMaxLength} characters`);
  if (pattern.includes('\u0000')) throw bad('must not contain the NUL character');
  let inClass = false;
  // Per open group: whether it holds a counted repetition. Counting such a group again multiplies
  // the automaton the database builds (PostgreSQL refuses it as too complex, PGlite fails).
  const groups: boolean[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) throw bad('ends with a lone backslash');
      if (/[A-Za-z0-9]/.test(next) && !allowedEscapes.has(next)) throw bad(`the escape \\${next} is not supported (only \\d \\D \\s \\S \\w \\W and escaped symbols)`);
      i++;
      continue;
    }
    if (inClass) {
      if (c === '[' && /[:.=]/.test(pattern[i + 1] ?? '')) throw bad('POSIX bracket classes such as [[:alpha:]] are not supported');
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      // A `]` right after `[` or `[^` is a literal member.
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (c === '(') {
      if (pattern[i + 1] === '?' && pattern[i + 2] !== ':') throw bad('look-around and embedded options "(?…)" are not supported (only "(?:…)")');
      groups.push(false);
      continue;
    }
    if (c === ')') {
      const lastGroupCounted = groups.pop() ?? false;
      if (groups.length && lastGroupCounted) groups[groups.length - 1] = true;
      if (pattern[i + 1] === '{' && lastGroupCounted) throw bad('a counted repetition such as {2,5} cannot be counted again');
      continue;
    }
    if (c === '{') {
      if (groups.length) groups[groups.length - 1] = true;
      const bound = /^\{(\d{1,3})(,(\d{1,3})?)?\}/.exec(pattern.slice(i));
      if (!bound) throw bad('"{" must start a repetition such as {2}, {2,} or {2,5} (write \\{ for the character)');
      const [min, max] = [Number(bound[1]), bound[3] === undefined ? undefined : Number(bound[3])];
      if (min > 255 || (max !== undefined && (max > 255 || max < min))) throw bad('repetition counts must be from 0 to 255, the smaller first');
      i += bound[0].length - 1;
    }
  }
  if (inClass) throw bad('has an unclosed "["');
  try {
    new RegExp(pattern);
  } catch {
    throw bad('is not a valid regular expression');
  }
  return pattern;
}

/** A pattern matching `text` literally (for PostgreSQL and JavaScript alike). */
export const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|-]/g, (c) => `\\${c}`);
