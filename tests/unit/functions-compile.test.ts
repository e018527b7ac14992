/** compileFunction (server/functions/compile.ts; docs/functions.md "The sandbox"): TypeScript and JavaScript to one module, errors with positions, imports refused. */
import { describe, expect, it } from 'vitest';
import { compileFunction } from '../../server/functions/compile.ts';

describe('compileFunction', () => {
  it('compiles TypeScript to an ES2020 module with an inline source map', () => {
    const compiled = compileFunction(
      [
        "import type { Order } from './types';",
        'enum Status { Open = 1 }',
        'export default async function (event: Order & { n?: number }, ctx: unknown): Promise<number> {',
        '  const total = event.n ?? 0;',
        '  return total + Status.Open;',
        '}',
      ].join('\n'),
      'ts',
    );
    if (!('code' in compiled)) throw new Error(JSON.stringify(compiled.errors));
    expect(compiled.code).not.toMatch(/: Order|Promise<number>|import type/);
    expect(compiled.code).toMatch(/export \{\s*\w+ as default\s*\}/);
    // es2020 keeps `??`; the map lets the sandbox report the source's own lines.
    expect(compiled.code).toContain('??');
    expect(compiled.code).toMatch(/\/\/# sourceMappingURL=data:application\/json;base64,/);
  });

  it('compiles JavaScript', () => {
    const compiled = compileFunction('export default async (event, ctx) => ({ ok: event?.ok ?? true });', 'js');
    expect('code' in compiled && compiled.code).toContain('export');
  });

  it('reports a syntax error with its line and column (1-based)', () => {
    expect(compileFunction('export default async () => {\n  const x = ;\n}', 'js')).toEqual({
      errors: [{ line: 2, column: 13, message: expect.stringMatching(/Unexpected ";"/) }],
    });
    const ts = compileFunction('const a: number = 1;\nexport default async (e: { a: number ) => e;', 'ts');
    expect('errors' in ts && ts.errors[0]).toMatchObject({ line: 2, column: expect.any(Number), message: expect.any(String) });
  });

  it('refuses imports: static, re-exports, dynamic, and unused TypeScript ones', () => {
    const refused = (source: string, language: 'js' | 'ts' = 'ts') => {
      const compiled = compileFunction(source, language);
      return 'errors' in compiled ? compiled.errors : [];
    };
    expect(refused('import fs from "node:fs";\nexport default async () => fs.readFileSync("/etc/passwd", "utf8");', 'js')).toEqual([
      { line: 1, column: 1, message: 'Functions cannot import modules (the import of "node:fs"): everything a function uses comes through ctx (ctx.fetch, ctx.call).' },
    ]);
    // Unused, so TypeScript alone would drop it: refused all the same, at its own line.
    expect(refused("const a = 1;\nimport { readFile } from 'fs';\nexport default async () => a;")).toEqual([
      { line: 2, column: 1, message: expect.stringContaining('the import of "fs"') },
    ]);
    expect(refused("export * from './elsewhere';\nexport default async () => 1;")).toEqual([{ line: 1, column: 1, message: expect.stringContaining('"./elsewhere"') }]);
    expect(refused("export default async () => {\n  const fs = await import('fs');\n  return 1;\n};")).toEqual([
      { line: 2, column: expect.any(Number), message: expect.stringContaining('import("fs")') },
    ]);
    // A type-only import is erased, and the word "import" in a string is no import.
    expect(refused("import type { X } from './x';\nexport default async (e: X) => 'import fs from \"fs\"';")).toEqual([]);
  });
});
