/**
 * `npm run bench -- admin [organizations|backup]` (docs/admin.md, docs/cli.md): the organizations
 * table at 100,000 organizations (first page with total, search, sort: p95 on PostgreSQL), and a
 * backup of a 1,000,000-item collection (time and peak memory). Without a part name, both run.
 */
export async function run(args: string[]): Promise<number> {
  const part = args[0] && !args[0].startsWith('--') ? args[0] : undefined;
  const rest = part ? args.slice(1) : args;
  let status = 0;
  if (!part || part === 'organizations') status ||= await (await import('./admin-organizations.ts')).run(rest);
  if (!part || part === 'backup') status ||= await (await import('./admin-backup.ts')).run(rest);
  return status;
}
