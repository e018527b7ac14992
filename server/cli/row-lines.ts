/** An import's bad rows as the command line prints them (docs/cli.md "Collections"). */

/** The first 20 row problems, one a line. */
export function rowLines(errors: readonly { line?: number; record?: number; path: string; message: string }[]): string[] {
  const lines = errors.slice(0, 20).map((e) => `  ${e.record !== undefined ? `record ${e.record}` : `line ${e.line ?? '?'}`}${e.path ? `, ${e.path}` : ''}: ${e.message}`);
  if (errors.length > 20) lines.push(`  … and ${errors.length - 20} more (--json lists them all)`);
  return lines;
}
