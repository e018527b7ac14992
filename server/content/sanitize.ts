/**
 * The allow-list sanitiser of RichText values (DOMPurify over jsdom). Every RichText value an item
 * write carries passes through it before it is stored, so what is stored, answered and served by
 * the public API is the sanitised HTML. Allowed: definitions/rich-text.ts (headings, lists, links
 * with http/https/mailto, images with http/https or this server's /files/, tables, quotes, `dir`).
 * Everything else goes: scripts, event handlers, `<style>` and every `style` attribute but a
 * table part's pixel widths (as the editor writes them), frames,
 * objects, forms, SVG and MathML, and any address with another scheme (`javascript:`, `data:`,
 * `vbscript:`, …) in every spelling.
 */
import { createRequire } from 'node:module';
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { isSafeImage, isSafeLink, quoteFormats, richTextMarkup } from '../../definitions/rich-text.ts';

const config: Config = {
  ALLOWED_TAGS: [...richTextMarkup.tags],
  ALLOWED_ATTR: [...richTextMarkup.attributes],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOW_SELF_CLOSE_IN_ATTR: false,
  SAFE_FOR_TEMPLATES: false,
  WHOLE_DOCUMENT: false,
  // Elements whose content is code or a document of its own go with everything in them.
  FORBID_CONTENTS: ['script', 'style', 'template', 'noscript', 'noembed', 'noframes', 'iframe', 'object', 'embed', 'svg', 'math', 'xmp', 'plaintext', 'textarea', 'select', 'option', 'title'],
  USE_PROFILES: false,
  RETURN_TRUSTED_TYPE: false,
};

/**
 * The sanitiser, made on the first rich-text write rather than at start-up: jsdom costs about
 * 0.7 s and 100 MB to load, which a server that never stores rich text need not pay.
 */
let made: DOMPurify | undefined;
function sanitizer(): DOMPurify {
  if (made) return made;
  const { JSDOM } = createRequire(import.meta.url)('jsdom') as typeof import('jsdom');
  const purify = createDOMPurify(new JSDOM('').window as unknown as Parameters<typeof createDOMPurify>[0]);
  addHooks(purify);
  made = purify;
  return purify;
}

function addHooks(purify: DOMPurify) {
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const name = data.attrName;
    const value = data.attrValue;
    const tag = node.nodeName.toLowerCase();
    let keep = true;
    if (name === 'href') keep = tag === 'a' && isSafeLink(value);
    else if (name === 'src') keep = tag === 'img' && isSafeImage(value);
    else if (name === 'target') keep = tag === 'a' && value === '_blank';
    else if (name === 'dir') keep = value === 'ltr' || value === 'rtl' || value === 'auto';
    else if (name === 'data-quote-format') keep = tag === 'blockquote' && (quoteFormats as readonly string[]).includes(value);
    else if (name === 'colspan' || name === 'rowspan' || name === 'start' || name === 'width' || name === 'height') keep = /^\d{1,5}$/.test(value);
    else if (name === 'colwidth') keep = /^\d{1,5}(,\d{1,5})*$/.test(value);
    else if (name === 'type') keep = tag === 'ol' && /^[1aAiI]$/.test(value);
    else if (name === 'style') keep = (richTextMarkup.styledTags as readonly string[]).includes(tag) && richTextMarkup.stylePattern.test(value);
    if (!keep) data.keepAttr = false;
  });

  purify.addHook('afterSanitizeAttributes', (node) => {
    // A link opening a new tab must not hand the opened page this one.
    if (node.nodeName === 'A' && node.getAttribute('target') === '_blank') {
      const rel = new Set((node.getAttribute('rel') ?? '').split(/\s+/).filter(Boolean));
      if (!rel.has('noopener') || !rel.has('noreferrer')) {
        rel.add('noopener');
        rel.add('noreferrer');
        node.setAttribute('rel', [...rel].join(' '));
      }
    }
  });

}

/** The value with every disallowed element, attribute and address removed. */
export function sanitizeRichText(html: string): string {
  const purify = sanitizer();
  // Sanitising twice gives the same text: what a browser re-parses is what was checked (mutation XSS).
  const once = purify.sanitize(html, config) as unknown as string;
  return purify.sanitize(once, config) as unknown as string;
}
