/**
 * `npm run dev`: the API restarts on every server change (tsx watch) on PORT+1, and Vite serves the
 * console with hot reload on PORT, proxying the service prefixes to the API.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'vite';
import { loadConfig, serverEnvironment } from './config.ts';

const { port, publicUrl } = loadConfig();
const apiPort = port + 1;
const api = spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/start.ts'], {
  stdio: 'inherit',
  env: serverEnvironment({ PORT: String(apiPort), SERVE_CONSOLE: '0', PUBLIC_URL: publicUrl }),
});
const target = `http://127.0.0.1:${apiPort}`;
const proxy = Object.fromEntries(['/api', '/auth', '/billing', '/integrations', '/functions'].map((p) => [p, { target, changeOrigin: false }]));
const vite = await createServer({ server: { port, strictPort: true, proxy } });
await vite.listen();
vite.printUrls();
const stop = async () => {
  api.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
