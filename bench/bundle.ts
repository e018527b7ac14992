/**
 * `npm run bench -- bundle`: the JavaScript a browser downloads before the login screen is drawn,
 * in gzip bytes: the entry chunk and its static imports, plus the lazy chunks of the /login route
 * (its layout and screen) and their static imports. Builds the console first when it is stale.
 * Budget (../shared/DEPENDENCIES.md): 200 KB gzip. `--json` prints the figures as JSON.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildConsole, consoleIsStale } from '../server/build-console.ts';
import { consoleDir } from '../server/console.ts';
import { routes, type RouteDefinition } from '../definitions/routes.ts';

export const BUDGET_BYTES = 200 * 1024;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

function findRoute(list: readonly RouteDefinition[], name: string): RouteDefinition | undefined {
  for (const route of list) {
    if (route.name === name) return route;
    const found = route.children && findRoute(route.children, name);
    if (found) return found;
  }
  return undefined;
}

/** The manifest keys of the /login route's lazy modules, by the registries' naming convention. */
function loginModules(): string[] {
  const login = findRoute(routes, 'login');
  if (!login?.screen || !login.layout) throw new Error('The route table has no login route with a screen and a layout.');
  return [`src/layouts/${pascal(login.layout)}Layout.tsx`, `src/screens/${pascal(login.screen)}Screen.tsx`];
}

/** The chunk and every chunk it imports statically, as files. */
function closure(manifest: Manifest, key: string, into: Set<string>) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest.`);
  if (into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into);
}

export interface BundleFigures {
  files: { file: string; bytes: number; gzip: number }[];
  totalBytes: number;
  totalGzip: number;
  budget: number;
}

export function measure(dir = consoleDir): BundleFigures {
  const manifestFile = path.join(dir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`No build manifest at ${manifestFile}; build.manifest must be on in vite.config.ts.`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('The build manifest has no entry.');
  const files = new Set<string>();
  closure(manifest, entry, files);
  for (const key of loginModules()) closure(manifest, key, files);
  const figures = [...files].map((file) => {
    const content = readFileSync(path.join(dir, file));
    return { file, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
  });
  return {
    files: figures.sort((a, b) => b.gzip - a.gzip),
    totalBytes: figures.reduce((sum, f) => sum + f.bytes, 0),
    totalGzip: figures.reduce((sum, f) => sum + f.gzip, 0),
    budget: BUDGET_BYTES,
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function run(args: string[]): Promise<number> {
  if (consoleIsStale()) {
    console.log('Building the console…');
    await buildConsole();
  }
  const figures = measure();
  if (args.includes('--json')) {
    console.log(JSON.stringify(figures, null, 2));
  } else {
    console.log('JavaScript loaded before the login screen is drawn:');
    for (const f of figures.files) console.log(`  ${kb(f.gzip).padStart(9)} gzip  ${kb(f.bytes).padStart(9)} raw  ${f.file}`);
    console.log(`Total: ${kb(figures.totalGzip)} gzip (${kb(figures.totalBytes)} raw); budget ${kb(figures.budget)} gzip.`);
  }
  if (figures.totalGzip > figures.budget) {
    console.error(`Over budget by ${kb(figures.totalGzip - figures.budget)}.`);
    return 1;
  }
  return 0;
}
