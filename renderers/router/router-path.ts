/** The route table's notation (`{param}`, paths absolute at the top level) to react-router's (`:param`, relative). */
export function routerPath(path: string): string {
  return path.replace(/^\/+/, '').replace(/\{(\w+)\}/g, ':$1');
}
