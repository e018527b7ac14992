/**
 * The import's CSV reader (server/content/import-readers.ts CsvScanner, docs/content-storage.md
 * "Importing items"): the records csv-parse reads (strict quotes, LF or CRLF, BOM, empty lines
 * skipped), whatever the chunks' boundaries, with the physical line each record starts on; the
 * same files refused.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvScanner } from '../../server/content/import-readers.ts';

/** Every record of `text` fed in chunks of `size` characters (the file ends after the last). */
function scan(text: string, size: number) {
  const scanner = new CsvScanner(1_000_000);
  const out: { line: number; cells: string[] }[] = [];
  for (let at = 0; at < text.length; at += size) {
    for (const r of scanner.push(text.slice(at, at + size), false)) out.push({ line: (r.place as { line: number }).line, cells: r.cells });
  }
  for (const r of scanner.push('', true)) out.push({ line: (r.place as { line: number }).line, cells: r.cells });
  return out;
}

const reference = (text: string) => parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, record_delimiter: ['\r\n', '\n'] }) as string[][];

const good = [
  'a,b,c\n1,2,3\n',
  'a,b\n1,2',
  '\ufeffa,b\r\n1,2\r\n',
  'a,b\n\n\n1,2\n\r\n3,4\n',
  'a,b\n"x, y","two\nlines"\n"q""uote","""",\n',
  'a\n""\n\n"",""\n',
  'a,b\n,\n,x\nx,\n',
  'a,b\n1,2,3,4\n5\n',
  'a\nlone\rcr\n"cr\r\ninside"\nend\r',
  'a,b\n"é ☃ 𝄞","x"\r\n"""a""",b',
  'a\n\n',
  '',
  '\n\n',
];

const bad = ['a,b\n"open,1\n', 'a,b\nx"y,1\n', 'a,b\n"x" ,1\n', 'a\n"x"y\n'];

describe('import CSV reader', () => {
  it('reads what csv-parse reads, in chunks of any size, with the line each record starts on', () => {
    for (const text of good) {
      const expected = reference(text);
      for (const size of [1, 2, 3, 7, 64, 1 << 20]) expect(scan(text, size).map((r) => r.cells), `${JSON.stringify(text)} in chunks of ${size}`).toEqual(expected);
    }
    expect(scan('a,b\n\n"two\r\nlines",1\n\nx,2\r\n"""\n""",3\n', 2).map((r) => r.line)).toEqual([1, 3, 6, 7]);
  });

  it('refuses the files csv-parse refuses, naming the line of the record', () => {
    for (const text of bad) {
      expect(() => reference(text), JSON.stringify(text)).toThrow();
      for (const size of [1, 5, 1 << 20]) expect(() => scan(text, size), `${JSON.stringify(text)} in chunks of ${size}`).toThrow(/not valid CSV/);
    }
    expect(() => scan('a\nb\n"open\n\nx', 3)).toThrow(expect.objectContaining({ place: { line: 3 } }));
  });

  it('refuses a record longer than the most allowed', () => {
    const scanner = new CsvScanner(10);
    expect(() => scanner.push(`a\n"${'x'.repeat(20)}"\n`, true)).toThrow(/longer than 10/);
  });
});
