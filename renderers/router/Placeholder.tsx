import { createElement } from 'react';
import { Outlet } from 'react-router';
import { useFormat } from '../messages/use-format.ts';
import type { PlaceholderProps } from './types.ts';

/** Stands in for a screen a later issue builds; the route table marks such routes `placeholder`. */
export function Placeholder({ title, depth, hasChildren }: PlaceholderProps) {
  const format = useFormat();
  const heading = `h${Math.min(depth, 6)}`;
  return (
    <section className="placeholder" data-placeholder="true" aria-label={depth > 1 ? format(title) : undefined}>
      {createElement(heading, { className: 'placeholder-title' }, format(title))}
      {!hasChildren && <p className="placeholder-body">{format('placeholder.body')}</p>}
      {hasChildren && <Outlet />}
    </section>
  );
}
