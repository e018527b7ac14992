/** Keeping a text field within its maximum as people edit it. */
import { characterCount } from '../../definitions/field-types/support.ts';
import { firstCharacters } from './editor-support.ts';

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The text an edit leaves within `max` characters (code points). Of what the edit inserted only
 * what fits is kept: typing into a full field changes nothing and a paste is cut where the room
 * runs out, so the text already there is never what gets cut (cutting the end would drop the last
 * characters unseen while the person types in the middle). Deleting is always let through, even
 * from a text stored over a maximum lowered since.
 */
export function limitEdit(previous: string, next: string, max: number): string {
  if (characterCount(next) <= max) return next;
  const shortest = Math.min(previous.length, next.length);
  let start = 0;
  while (start < shortest && previous[start] === next[start]) start += 1;
  // Never split a character made of two code units.
  if (start > 0 && isHighSurrogate(next.charCodeAt(start - 1))) start -= 1;
  let end = 0;
  while (end < shortest - start && previous[previous.length - 1 - end] === next[next.length - 1 - end]) end += 1;
  if (end > 0 && isLowSurrogate(next.charCodeAt(next.length - end))) end -= 1;
  const before = next.slice(0, start);
  const inserted = next.slice(start, next.length - end);
  const after = next.slice(next.length - end);
  const room = Math.max(0, max - characterCount(before) - characterCount(after));
  return before + firstCharacters(inserted, room) + after;
}
