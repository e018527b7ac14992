/**
 * The README and docs/ hold together: every relative link reaches a file (and a heading of it, when
 * it names one), every pointer a comment makes into docs/ names a page and a section that exist,
 * and no comment cites a document a reader of the repository does not have.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citingComments } from '../../bench/code-figures.ts';

const root = join(import.meta.dirname, '../..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The headings of a Markdown file, outside code blocks. */
function headings(path: string): string[] {
  let fenced = false;
  const found: string[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading) found.push(heading[1]!.trim());
  }
  return found;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) => heading.toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');

/** A section named by a comment: a heading of that name, or one that starts with it and a colon. */
const hasSection = (path: string, name: string) => headings(path).some((heading) => heading === name || heading.startsWith(`${name}:`));

function codeFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return codeFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('docs', () => {
  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [file, hash] = target!.split('#') as [string, string | undefined];
      const path = file ? join(root, dirname(page), file) : join(root, page);
      if (!existsSync(path)) broken.push(target!);
      else if (hash && path.endsWith('.md') && !headings(path).some((heading) => anchor(heading) === hash)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });

  it('has every page and section that a comment points to', () => {
    const missing: string[] = [];
    for (const dir of ['server', 'src', 'renderers', 'machines', 'definitions', 'tests', 'e2e', 'bench']) {
      for (const path of codeFiles(join(root, dir))) {
        for (const [reference, page, quoted] of readFileSync(path, 'utf8').matchAll(/docs\/([a-z0-9-]+\.md)(?: "([^"]+)")?/g)) {
          const doc = join(root, 'docs', page!);
          // A section name may wrap onto the comment's next line.
          const section = quoted?.replace(/\s*\n\s*(?:\*|\/\/)?\s*/g, ' ');
          if (!existsSync(doc) || (section && !hasSection(doc, section))) missing.push(`${relative(root, path)}: ${reference}`);
        }
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);

  // Scanning every code file takes seconds on a busy machine.
  it('leaves no comment citing a document outside the repository', () => {
    expect(citingComments(root)).toEqual([]);
  }, 60_000);
});
