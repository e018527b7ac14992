/** Rich text as plain text: the markup's text content, never the markup itself. */
import type { DisplayProps } from '../display-types.ts';

const textOf = (html: string) => {
  if (typeof DOMParser === 'undefined') return html.replace(/<[^>]*>/g, ' ');
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
};

export function RichTextDisplay({ value }: DisplayProps) {
  if (typeof value !== 'string' || value === '') return null;
  return <span className="cell-text">{textOf(value).replace(/\s+/g, ' ').trim()}</span>;
}
