/**
 * After `vite build`, writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the
 * built console, at the strongest settings: the server sends them as they are (`@fastify/static`'s
 * `preCompressed`) to clients whose Accept-Encoding allows, so nothing is compressed per request.
 * A copy that would not be smaller is not written; the server then sends the file itself.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images, fonts and media are compressed already. */
const compressible = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm|map)$/i;

export interface PrecompressFigures {
  files: number;
  bytes: number;
  brotli: number;
  gzip: number;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Compresses every text file under `dir` (not `.vite`, Vite's own metadata) into `.br` and `.gz` beside it. */
export async function precompressDirectory(dir: string): Promise<PrecompressFigures> {
  const files = (await filesUnder(dir)).filter(
    (file) => compressible.test(file) && !path.relative(dir, file).split(path.sep).includes('.vite'),
  );
  const figures: PrecompressFigures = { files: 0, bytes: 0, brotli: 0, gzip: 0 };
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      figures.files += 1;
      figures.bytes += content.length;
      figures.brotli += Math.min(br.length, content.length);
      figures.gzip += Math.min(gz.length, content.length);
      if (br.length < content.length) await writeFile(`${file}.br`, br);
      if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
    }),
  );
  return figures;
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'larder-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDirectory(outDir);
    },
  };
}
