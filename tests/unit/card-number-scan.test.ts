/** The e2e run's last check (e2e/support/card-number-scan.ts) finds a card number wherever it was written. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCardNumbers } from '../../e2e/support/card-number-scan.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('findCardNumbers', () => {
  it('finds a test number in a nested data file, spaced or not, and in the output', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'larder-scan-'));
    mkdirSync(path.join(dir, 'pg', 'base'), { recursive: true });
    writeFileSync(path.join(dir, 'pg', 'base', '16384'), Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('card 4000000000000341 kept'), Buffer.from([0])]));
    writeFileSync(path.join(dir, 'other'), 'nothing here but 4242');
    const found = findCardNumbers(dir, 'request body: number=4242 4242 4242 4242');
    expect(found).toEqual([path.join('pg', 'base', '16384') + ': 4000000000000341', 'server output: 4242 4242 4242 4242']);
  });

  it('finds nothing where only the last four digits are kept', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'larder-scan-'));
    writeFileSync(path.join(dir, 'rows'), 'last4=4242 brand=visa token=sbx_123');
    expect(findCardNumbers(dir, 'saved card •••• 4242')).toEqual([]);
  });
});
