/**
 * A RichText field's custom CSS (`richTextCustomCSS`), confined to its editor. The browser's own
 * CSS parser reads the text (a constructed style sheet, or a style element of a detached document
 * where that is missing); every style rule is rebuilt with each of its selectors prefixed by the
 * editor's scope, `:root`, `html` and `body` standing for the scope itself. Rules inside `@media`,
 * `@supports`, `@container` and `@layer` blocks are scoped the same way; every other at-rule
 * (`@import`, `@font-face`, `@keyframes`, `@page`, `@property`, …) is dropped, since each of
 * them reaches beyond the editor. The editor's box also has `contain: paint`, so even a
 * `position: fixed` element stays inside it.
 */

/** Splits a selector list at its top-level commas (not those inside `:is(a, b)`, `[x="a,b"]` or strings). */
export function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** One selector under the scope: `:root`, `html` and `body` at its start stand for the scope itself. */
export function scopeSelector(selector: string, scope: string): string {
  const rooted = /^(?::root|html|body)(?![\w-])/i.exec(selector);
  if (!rooted) return `${scope} ${selector}`;
  const rest = selector.slice(rooted[0].length);
  // `body.dark` and `:root:hover` are the scope itself with more conditions.
  if (/^[.#[:]/.test(rest)) return `${scope}${rest}`;
  const trimmed = rest.trim();
  if (trimmed === '') return scope;
  // `html body p` → `scope p`.
  if (/^(?::root|html|body)(?![\w-])/i.test(trimmed)) return scopeSelector(trimmed, scope);
  return `${scope} ${trimmed}`;
}

/** Whether the text is one valid selector (the engine's own selector parser decides). */
function isSelector(selector: string): boolean {
  if (/[{}]/.test(selector)) return false;
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}

type RuleLike = { type?: number; cssText: string; selectorText?: string; style?: { cssText: string }; cssRules?: ArrayLike<RuleLike>; conditionText?: string; media?: { mediaText: string }; name?: string; constructor: { name: string } };

const groupingKinds: Record<string, (rule: RuleLike) => string | null> = {
  CSSMediaRule: (rule) => `@media ${rule.media?.mediaText ?? rule.conditionText ?? ''}`,
  CSSSupportsRule: (rule) => `@supports ${rule.conditionText ?? ''}`,
  CSSContainerRule: (rule) => `@container ${rule.conditionText ?? ''}`,
  CSSLayerBlockRule: (rule) => `@layer${rule.name ? ` ${rule.name}` : ''}`,
};

function kindOf(rule: RuleLike): string {
  if (rule.selectorText !== undefined && rule.style) return 'CSSStyleRule';
  const name = rule.constructor?.name ?? '';
  if (name in groupingKinds) return name;
  // Older CSSOM implementations (jsdom) name types by number: 1 style, 4 media, 12 supports.
  if (rule.type === 4) return 'CSSMediaRule';
  if (rule.type === 12) return 'CSSSupportsRule';
  return name || 'unknown';
}

function scopeRules(rules: ArrayLike<RuleLike>, scope: string): string[] {
  const out: string[] = [];
  for (const rule of Array.from(rules)) {
    const kind = kindOf(rule);
    if (kind === 'CSSStyleRule') {
      const selectors = splitSelectors(rule.selectorText ?? '')
        .map((s) => scopeSelector(s, scope))
        .filter(isSelector);
      // A lenient parser (jsdom's) can hand back text no browser would take as a rule: left out.
      if (selectors.length === 0 || /[{}]/.test(rule.style!.cssText)) continue;
      // Nested rules (CSS nesting) are relative to this one, so they stay inside the scope.
      const nested = rule.cssRules && rule.cssRules.length ? scopeNested(rule.cssRules) : '';
      out.push(`${selectors.join(', ')} { ${rule.style!.cssText}${nested} }`);
    } else if (kind in groupingKinds) {
      const inner = scopeRules(rule.cssRules ?? [], scope);
      if (inner.length) out.push(`${groupingKinds[kind]!(rule)} { ${inner.join(' ')} }`);
    }
  }
  return out;
}

/** Nested style rules keep their text when every selector is relative (`&`); anything else is dropped. */
function scopeNested(rules: ArrayLike<RuleLike>): string {
  return Array.from(rules)
    .filter((rule) => kindOf(rule) === 'CSSStyleRule' && splitSelectors(rule.selectorText ?? '').every((s) => s.startsWith('&')))
    .map((rule) => ` ${rule.cssText}`)
    .join('');
}

/** The rules of `css` as the browser parses them (nothing is applied anywhere). */
function parse(css: string): ArrayLike<RuleLike> {
  if (typeof CSSStyleSheet === 'function') {
    try {
      const sheet = new CSSStyleSheet();
      // replaceSync ignores @import rules, which are dropped anyway.
      sheet.replaceSync(css);
      return sheet.cssRules as unknown as ArrayLike<RuleLike>;
    } catch {
      // Not constructible here (older engines, jsdom): parse in a detached document instead.
    }
  }
  const doc = document.implementation.createHTMLDocument('');
  const style = doc.createElement('style');
  style.textContent = css;
  doc.head.appendChild(style);
  return (style.sheet?.cssRules ?? []) as unknown as ArrayLike<RuleLike>;
}

/** The CSS text with every rule confined to `scope` (a selector, e.g. `[data-rich-text-scope="a1"]`). */
export function scopeCss(css: string, scope: string): string {
  if (!css.trim()) return '';
  return scopeRules(parse(css), scope).join('\n');
}
