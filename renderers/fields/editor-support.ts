/** Small helpers the editors share. */
import { useEffect, useRef } from 'react';

/** The ids of the elements describing a control, or undefined when none. */
export const describedByOf = (...ids: (string | false | null | undefined)[]): string | undefined => {
  const list = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return list.length ? list.join(' ') : undefined;
};

/** Keeps the page told of the input an editor holds back (see `EditorProps.onProblem`). */
export function useReportProblem(onProblem: ((message: string | undefined) => void) | undefined, problem: string | undefined) {
  const report = useRef(onProblem);
  report.current = onProblem;
  useEffect(() => {
    report.current?.(problem);
  }, [problem]);
  // Gone editors hold nothing back.
  useEffect(() => () => report.current?.(undefined), []);
}

/** The first `max` characters of a text, counted as people count them (code points). */
export function firstCharacters(text: string, max: number): string {
  let count = 0;
  let end = 0;
  for (const character of text) {
    if (count === max) return text.slice(0, end);
    count += 1;
    end += character.length;
  }
  return text;
}
