/** Builds the console with Vite when dist/console is missing or older than its sources. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleDir } from './console.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inputs = ['index.html', 'vite.config.ts', 'vite-plugin-form-validators.ts', 'vite-plugin-precompress.ts', 'package.json', 'src', 'renderers', 'machines', 'definitions', 'public'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function consoleIsStale(): boolean {
  const built = path.join(consoleDir, 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return inputs.some((input) => newestMtime(path.join(root, input)) > builtAt);
}

export async function buildConsole(): Promise<void> {
  const { build } = await import('vite');
  await build({ root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}

export async function ensureConsoleBuilt(log: (message: string) => void = console.log): Promise<void> {
  if (!consoleIsStale()) return;
  log('Building the console…');
  const started = Date.now();
  await buildConsole();
  log(`Console built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await buildConsole();
}
