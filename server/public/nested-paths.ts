/**
 * Nested levels as paths of their own (docs/public-api.md "Nested levels as paths"): the official
 * client names a nested level by the `nestedID` query parameter, which code generators cannot tell
 * apart by path, so the public API also answers
 *
 *   /api/public/collection/{c}/items/{id}/nested/{slug}/items[/{nestedId}[/nested/{slug}/items…]][/rest]
 *
 * by rewriting it, before routing, to the form the client sends:
 *
 *   /api/public/collection/{c}/items/{id}[/rest]?…&nestedID={slug}[.{nestedId}…]
 *
 * Anything else is left as it is (and meets the router's 404). A `nestedID` already in the query
 * is kept: the repeated parameter is then refused as every repeated parameter is.
 */
const PREFIX = '/api/public/collection/';

export function rewriteNestedPath(url: string): string {
  if (!url.startsWith(PREFIX) || !url.includes('/nested/')) return url;
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const query = mark < 0 ? '' : url.slice(mark + 1);
  const parts = path.slice(PREFIX.length).split('/');
  // parts: collection, 'items', item id, 'nested', slug, 'items', [nested id, 'nested', …], [rest…]
  if (parts.length < 6 || !parts[0] || parts[1] !== 'items' || !parts[2] || parts[3] !== 'nested') return url;
  const chain: string[] = [];
  let i = 3;
  while (parts[i] === 'nested') {
    const slug = parts[i + 1];
    if (!slug || parts[i + 2] !== 'items') return url;
    chain.push(slug);
    i += 3;
    if (i >= parts.length) break; // the nested list itself
    const id = parts[i];
    if (!id) return url;
    chain.push(id);
    i += 1;
  }
  const rest = parts.slice(i);
  if (rest.some((part) => !part)) return url;
  const target = PREFIX + [parts[0], 'items', parts[2], ...rest].join('/');
  return `${target}?${query ? `${query}&` : ''}nestedID=${chain.join('.')}`;
}
