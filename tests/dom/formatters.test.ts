/** Business constants and formatters. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paging, storageKeys, throttles, ui } from '../../definitions/constants.ts';
import { formatDateTime } from '../../definitions/format-date-time.ts';
import { formatSize } from '../../definitions/format-size.ts';

describe('business constants', () => {
  it('holds the interface timings and sizes', () => {
    expect(ui).toMatchObject({
      toastDurationMs: 2000,
      spinnerDelayMs: 1000,
      loadingBarHeight: '0.5vh',
      createWebhookDialogWidthPx: 400,
      deleteDialogWidthPx: 500,
    });
    expect(paging).toMatchObject({ firstPage: 1, defaultPageSize: 50, nestedPageSize: 100 });
    expect(throttles).toEqual({ apiLimitDialogMs: 30_000, apiLimitRemindMs: 300_000, graceAlertMs: 3_600_000 });
  });

  it('names the local-storage keys, column layouts per organization, project, collection and nested path', () => {
    expect(storageKeys.session).toBe('larder.tokens');
    expect(storageKeys.lastOrganization).toBe('larder.lastOrganization');
    expect(storageKeys.theme).toBe('larder.theme');
    expect(storageKeys.columnLayout('o', 'p', 'c')).toBe('larder.columns.o.p.c');
    expect(storageKeys.columnLayout('o', 'p', 'c', 'c.i.n')).toBe('larder.columns.o.p.c.c.i.n');
  });
});

describe('style sheet', () => {
  it('switches to the narrow layout (menu button, bottom navigation) at one breakpoint, 900 px', () => {
    const css = readFileSync('src/styles/index.css', 'utf8');
    const breakpoints = [...css.matchAll(/@media \(max-width: (\d+)px\)/g)].map((match) => Number(match[1]));
    expect(breakpoints).toEqual([900]);
  });
});

describe('formatSize', () => {
  it('uses 1000-based units from bytes to PB', () => {
    expect(formatSize(0)).toBe('0 bytes');
    expect(formatSize(999)).toBe('999 bytes');
    expect(formatSize(1000)).toBe('1 kB');
    expect(formatSize(1500)).toBe('1.5 kB');
    expect(formatSize(10_000_000)).toBe('10 MB');
    expect(formatSize(2_345_000_000)).toBe('2.35 GB');
    expect(formatSize(7e12)).toBe('7 TB');
    expect(formatSize(3e15)).toBe('3 PB');
    expect(formatSize(5e18)).toBe('5,000 PB');
  });
});

describe('formatDateTime', () => {
  it('gives a long localized date and time', () => {
    const text = formatDateTime('2025-03-04T10:05:00Z');
    expect(text).toMatch(/March \d, 2025/);
    expect(text).toMatch(/\d{1,2}:\d{2}/);
    expect(formatDateTime('not a date')).toBe('');
  });
});
