/** `npm run bench -- <name>`: runs one benchmark. */
export {};
const benchmarks: Record<string, () => Promise<{ run(args: string[]): Promise<number> }>> = {
  admin: () => import('./admin.ts'),
  bundle: () => import('./bundle.ts'),
  'code-figures': () => import('./code-figures.ts'),
  billing: () => import('./billing.ts'),
  'content-storage': () => import('./content-storage.ts'),
  functions: () => import('./functions.ts'),
  'functions-sandbox': () => import('./functions-sandbox.ts'),
  layouts: () => import('./layouts.ts'),
  list: () => import('./list.ts'),
  load: () => import('./load.ts'),
  peer: () => import('./peer.ts'),
  public: () => import('./public.ts'),
  'reset-timing': () => import('./reset-timing.ts'),
  studio: () => import('./studio.ts'),
  'usage-limits': () => import('./usage-limits.ts'),
  webhooks: () => import('./webhooks.ts'),
};

const [name, ...args] = process.argv.slice(2);
const load = name ? benchmarks[name] : undefined;
if (!load) {
  console.error(`Usage: npm run bench -- <${Object.keys(benchmarks).join('|')}>`);
  process.exit(2);
}
const status = await (await load()).run(args);
process.exit(status);
