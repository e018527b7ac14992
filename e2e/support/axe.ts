/** Accessibility checks of the browser tests: axe-core, WCAG 2 A and AA rules. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Fails on any serious or critical violation, naming the rule and the elements. `exclude`: selectors
 * axe leaves out — a frame sandboxed without scripts (a mail's HTML shown as a mail) has no script
 * context for axe to run in, and waiting for one never ends.
 */
export async function expectAccessible(page: Page, label: string, options: { exclude?: readonly string[] } = {}) {
  // A toast or dialog still fading in is measured at part opacity (a contrast failure of a frame,
  // not of the screen): let every finite animation and transition end first. Toasts (sonner) also
  // start transitions of their own while the scan runs (a toast timing out, one stacking behind a
  // newer one): with reduced motion they change state at once, so the scan sees whole states only.
  const reduced = await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder
    .analyze()
    .finally(() => page.emulateMedia({ reducedMotion: reduced ? 'reduce' : 'no-preference' }));
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe on ${label}`).toEqual([]);
}
