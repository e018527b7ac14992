/**
 * `npm run bench -- code-figures [--root DIR] [--json] [--list]`: figures of the code's structure
 * that docs/architecture.md tracks (one owner per concern). Run against another checkout with
 * `--root` (for example a `git worktree` of an older commit) to compare before and after.
 *
 * - type-name literals: string literals equal to a field type's name (`'PlainText'`, …) in product
 *   code outside `definitions/field-types/` and `renderers/fields/` (the type folders and the two
 *   registries); behaviour belongs to the type's capabilities.
 * - wire shapes declared more than once: exported interfaces, object type literals and TypeBox
 *   constants of the same name in more than one file of `server/`, `src/api/` and `definitions/`.
 * - permission calls inside route files: `allow(`, `allowIn(`, `allowed(`, `access.require(` …
 * - functions over 200 lines in product code.
 * - README lines.
 * - comments (in code and style sheets) that cite documents a reader of the repository does not have (spec sections, the
 *   wire contract, issue numbers, files outside the repository).
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const PRODUCT = ['server', 'src', 'renderers', 'machines', 'definitions'];
const ALL_CODE = [...PRODUCT, 'tests', 'e2e', 'bench'];

function files(root: string, dirs: readonly string[], ending = /\.(ts|tsx)$/): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (ending.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  return out;
}

const rel = (root: string, path: string) => relative(root, path).split(sep).join('/');

function source(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function walkNodes(node: ts.Node, visit: (node: ts.Node) => void) {
  visit(node);
  node.forEachChild((child) => walkNodes(child, visit));
}

/** The names the field types declare (`name: 'PlainText'` in each type folder's index). */
function fieldTypeNames(root: string): Set<string> {
  const names = new Set<string>();
  const dir = join(root, 'definitions/field-types');
  for (const entry of readdirSync(dir)) {
    const index = join(dir, entry, 'index.ts');
    if (!existsSync(index)) continue;
    const match = /\bname:\s*'([A-Za-z]+)'/.exec(readFileSync(index, 'utf8'));
    if (match) names.add(match[1]!);
  }
  return names;
}

function typeNameLiterals(root: string): string[] {
  const names = fieldTypeNames(root);
  const hits: string[] = [];
  for (const path of files(root, PRODUCT)) {
    const name = rel(root, path);
    if (name.startsWith('definitions/field-types/') || name.startsWith('renderers/fields/')) continue;
    const file = source(path);
    walkNodes(file, (node) => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.has(node.text)) {
        hits.push(`${name}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1} '${node.text}'`);
      }
    });
  }
  return hits;
}

function wireShapeDuplicates(root: string): string[] {
  const declaredIn = new Map<string, Set<string>>();
  for (const path of files(root, ['server', 'src/api', 'definitions'])) {
    const name = rel(root, path);
    const file = source(path);
    const add = (id: string) => {
      const set = declaredIn.get(id) ?? new Set<string>();
      set.add(name);
      declaredIn.set(id, set);
    };
    for (const statement of file.statements) {
      const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (!exported) continue;
      // A type made from another (`Pick<…>`, `Static<…>`, an alias) is that type, not a second declaration.
      if (ts.isInterfaceDeclaration(statement) || (ts.isTypeAliasDeclaration(statement) && ts.isTypeLiteralNode(statement.type))) add(statement.name.text);
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          const init = declaration.initializer?.getText(file) ?? '';
          if (ts.isIdentifier(declaration.name) && /^Type\.(Object|Union|Intersect|Composite)\(/.test(init)) add(declaration.name.text);
        }
      }
    }
  }
  return [...declaredIn].filter(([, where]) => where.size > 1).map(([id, where]) => `${id}: ${[...where].join(', ')}`);
}

function permissionCallsInRoutes(root: string): string[] {
  const hits: string[] = [];
  const call = /\b(allow|allowIn|allowed|requireAccess)\(|\baccess\.(require|check)\w*\(/;
  for (const path of files(root, ['server'])) {
    const name = rel(root, path);
    if (!/routes?\.ts$|-routes\.ts$|route-[\w-]+\.ts$/.test(name) && !name.includes('/routes/')) continue;
    readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
      if (call.test(line) && !/^\s*(\*|\/\/)/.test(line) && !/function (allow|allowIn|allowed)\b|const (allow|allowIn|allowed) =/.test(line)) hits.push(`${name}:${i + 1}`);
    });
  }
  return hits;
}

function longFunctions(root: string, limit = 200): string[] {
  const hits: string[] = [];
  for (const path of files(root, PRODUCT)) {
    const file = source(path);
    walkNodes(file, (node) => {
      if (!ts.isFunctionDeclaration(node) && !ts.isFunctionExpression(node) && !ts.isArrowFunction(node) && !ts.isMethodDeclaration(node)) return;
      const start = file.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > limit) {
        const name = (node as ts.FunctionDeclaration).name?.getText(file) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(file) : '(anonymous)');
        hits.push(`${rel(root, path)}:${start + 1} ${name} (${end - start + 1} lines)`);
      }
    });
  }
  return hits;
}

/** Spec sections, the wire contract, issue numbers and paths outside the repository. */
const CITATION = /(content|platform|contract|spec)\s*§|§\s*\d|\b[Ii]ssues?\s+#?\d+|\.\.\/shared\/|\bthe spec\b|\bspec'?s\b/;

export function citingComments(root: string): string[] {
  const hits: string[] = [];
  for (const path of files(root, ALL_CODE)) {
    const text = readFileSync(path, 'utf8');
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, path.endsWith('.tsx') ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, text);
    const seen = new Set<number>();
    for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
      if (kind !== ts.SyntaxKind.SingleLineCommentTrivia && kind !== ts.SyntaxKind.MultiLineCommentTrivia) continue;
      const comment = scanner.getTokenText();
      let line = text.slice(0, scanner.getTokenStart()).split('\n').length;
      for (const part of comment.split('\n')) {
        if (CITATION.test(part) && !seen.has(line)) {
          seen.add(line);
          hits.push(`${rel(root, path)}:${line}`);
        }
        line++;
      }
    }
  }
  // Style sheets hold comments too: `/* … */` only.
  for (const path of files(root, ALL_CODE, /\.css$/)) {
    const text = readFileSync(path, 'utf8');
    for (const comment of text.matchAll(/\/\*[\s\S]*?\*\//g)) {
      let line = text.slice(0, comment.index).split('\n').length;
      for (const part of comment[0].split('\n')) {
        if (CITATION.test(part)) hits.push(`${rel(root, path)}:${line}`);
        line++;
      }
    }
  }
  return hits;
}

export async function run(args: string[]): Promise<number> {
  const at = args.indexOf('--root');
  const root = at >= 0 ? args[at + 1]! : process.cwd();
  const list = args.includes('--list');
  const figures = {
    'type-name literals outside the type folders': typeNameLiterals(root),
    'wire shapes declared in more than one file': wireShapeDuplicates(root),
    'permission calls in route files': permissionCallsInRoutes(root),
    'functions over 200 lines': longFunctions(root),
    'comments citing documents outside the repository': citingComments(root),
  };
  const readme = join(root, 'README.md');
  const readmeLines = existsSync(readme) ? readFileSync(readme, 'utf8').split('\n').length - 1 : 0;
  if (args.includes('--json')) {
    console.log(JSON.stringify({ root, readmeLines, ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, v.length])) }, null, 2));
    return 0;
  }
  console.log(`code figures of ${root}`);
  for (const [name, hits] of Object.entries(figures)) {
    console.log(`${String(hits.length).padStart(6)}  ${name}`);
    if (list) for (const hit of hits) console.log(`          ${hit}`);
  }
  console.log(`${String(readmeLines).padStart(6)}  README lines`);
  console.log('duplicated runs in product code: `duplicates --most 200` in each of server, src, renderers, machines, definitions');
  return 0;
}
