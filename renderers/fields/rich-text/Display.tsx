/** Rich text as plain text: the markup's text content, never the markup itself; blocks are separated by spaces. */
import type { DisplayProps } from '../display-types.ts';

const blocks = 'p, h1, h2, h3, h4, h5, h6, li, td, th, blockquote, pre, div, br, hr, tr';

export const textOf = (html: string) => {
  if (typeof DOMParser === 'undefined') return html.replace(/<[^>]*>/g, ' ');
  // An inert document: nothing in it loads or runs.
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  for (const element of body.querySelectorAll(blocks)) element.after(' ');
  return body.textContent ?? '';
};

export function RichTextDisplay({ value }: DisplayProps) {
  if (typeof value !== 'string' || value === '') return null;
  return <span className="cell-text">{textOf(value).replace(/\s+/g, ' ').trim()}</span>;
}
