/**
 * The text of a PDF as a test needs it: every content stream inflated (FlateDecode, as pdfkit
 * compresses), then the strings its text operators show (`Tj`, `TJ`: literal `( )` and hex `< >`
 * strings, one byte per character, as for the standard fonts), each operator's parts joined and
 * operators separated by a space. Not a PDF reader: enough to find an invoice number.
 */
import { inflateSync } from 'node:zlib';

function streams(pdf: Buffer): string[] {
  const out: string[] = [];
  const text = pdf.toString('latin1');
  const pattern = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text))) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    const header = text.slice(Math.max(0, match.index - 300), match.index);
    const body = pdf.subarray(start, end);
    if (/\/FlateDecode/.test(header.slice(header.lastIndexOf('<<')))) {
      try {
        out.push(inflateSync(body).toString('latin1'));
      } catch {
        // a stream that is not whole (trailing newline) still inflates below; others are not text
        try {
          out.push(inflateSync(body.subarray(0, body.length - 1)).toString('latin1'));
        } catch {
          /* not text */
        }
      }
    } else {
      out.push(body.toString('latin1'));
    }
    pattern.lastIndex = end;
  }
  return out;
}

const unescapeLiteral = (s: string) =>
  s.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_m, c: string) => {
    const map: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };
    return map[c] ?? String.fromCharCode(parseInt(c, 8));
  });

const hexText = (hex: string) => {
  const clean = hex.replace(/\s+/g, '');
  let out = '';
  for (let i = 0; i < clean.length; i += 2) out += String.fromCharCode(parseInt(clean.slice(i, i + 2).padEnd(2, '0'), 16));
  return out;
};

function shown(content: string): string[] {
  const parts: string[] = [];
  for (const m of content.matchAll(/\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9a-fA-F\s]*>|\((?:[^()\\]|\\.)*\))\s*Tj/g)) {
    const source = m[1] ?? m[2]!;
    let line = '';
    for (const piece of source.matchAll(/<([0-9a-fA-F\s]*)>|\(((?:[^()\\]|\\.)*)\)/g)) line += piece[1] !== undefined ? hexText(piece[1]) : unescapeLiteral(piece[2]!);
    parts.push(line);
  }
  return parts;
}

export function pdfText(pdf: Buffer): string {
  return streams(pdf).flatMap(shown).join(' ');
}
