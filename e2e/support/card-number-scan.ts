/**
 * After the browser tests: no full card number may be anywhere the server keeps or writes
 * (docs/security.md "Card data"). Searches every file of the server's data directory (the embedded
 * database's pages hold text columns as plain bytes) and the server's output for the sandbox's test
 * numbers, with and without the spaces people type.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sandboxTestCards } from '../../server/billing/providers/sandbox.ts';

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

/** The places (file paths, or "server output") holding a full test card number. */
export function findCardNumbers(dataDir: string, output: string): string[] {
  const needles = Object.keys(sandboxTestCards).flatMap((digits) => [digits, digits.replace(/(\d{4})(?=\d)/g, '$1 ')]);
  const found: string[] = [];
  for (const file of files(dataDir)) {
    const bytes = readFileSync(file);
    for (const needle of needles) if (bytes.includes(needle)) found.push(`${path.relative(dataDir, file)}: ${needle}`);
  }
  for (const needle of needles) if (output.includes(needle)) found.push(`server output: ${needle}`);
  return found;
}
