/**
 * A function's source made runnable, on save (docs/functions.md "The sandbox"): TypeScript or
 * JavaScript to one ES2020 module by esbuild, with an inline source map so the sandbox reports
 * stack positions in the source as written. A module that imports anything is refused — a function
 * gets everything through `ctx` — and so is a dynamic `import()` (the sandbox refuses it too).
 */
import { buildSync, transformSync, type Message } from 'esbuild';

export interface CompileError {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  message: string;
}

/** Imports are kept as written (not dropped when unused), so that each one is seen and refused. */
const tsconfigRaw = { compilerOptions: { verbatimModuleSyntax: true } };

const position = (message: Message): CompileError => ({
  line: message.location?.line ?? 1,
  column: (message.location?.column ?? 0) + 1,
  message: message.text,
});

export function compileFunction(source: string, language: 'js' | 'ts'): { code: string } | { errors: CompileError[] } {
  const sourcefile = language === 'ts' ? 'function.ts' : 'function.js';
  let code: string;
  try {
    code = transformSync(source, {
      loader: language,
      format: 'esm',
      target: 'es2020',
      sourcemap: 'inline',
      sourcesContent: false,
      sourcefile,
      tsconfigRaw,
      logLevel: 'silent',
    }).code;
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    if (!errors?.length) throw error;
    return { errors: errors.map(position) };
  }
  const imports = findImports(source, language, sourcefile);
  if (imports.length) return { errors: imports };
  return { code };
}

/** Every import of the module (static, re-export or dynamic), from esbuild's own reading of it; nothing is resolved or read. */
function findImports(source: string, language: 'js' | 'ts', sourcefile: string): CompileError[] {
  const result = buildSync({
    stdin: { contents: source, loader: language, sourcefile, resolveDir: '/' },
    bundle: true,
    write: false,
    metafile: true,
    external: ['*'],
    format: 'esm',
    platform: 'neutral',
    tsconfigRaw,
    logLevel: 'silent',
  });
  const lines = source.split('\n');
  return Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
    // esbuild's own helpers (`<runtime>`) are not the function's imports.
    (file.endsWith(sourcefile) ? input.imports.filter(({ path }) => path !== '<runtime>') : []).map(({ path, kind }) => {
      // The line that names the module, for the editor to point at.
      const quoted = [`'${path}'`, `"${path}"`, `\`${path}\``];
      const index = lines.findIndex((line) => quoted.some((q) => line.includes(q)) && /\b(import|from)\b/.test(line));
      const column = index < 0 ? 1 : Math.max(0, lines[index]!.search(/\b(import|export)\b/)) + 1;
      const what = kind === 'dynamic-import' ? `import("${path}")` : `the import of "${path}"`;
      return {
        line: index < 0 ? 1 : index + 1,
        column,
        message: `Functions cannot import modules (${what}): everything a function uses comes through ctx (ctx.fetch, ctx.call).`,
      };
    }),
  );
}
