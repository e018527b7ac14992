/**
 * Rich text shared by the server's sanitiser and the console's editor: what markup a RichText
 * value may hold, the quote formats, the project's rich-text settings and the editor's sizes.
 *
 * Project settings (`settings.richText` of a project): editor options that could have been tied
 * to hard-coded organizations and projects; here each is a switch of the project.
 * - `rightToLeft`: the toolbar offers right-to-left and left-to-right paragraphs;
 * - `menuBar`: a menu bar (Edit, Insert, Format) above the toolbar;
 * - `customQuoteFormats`: quotes come in formats (`quoteFormats`), not only the plain one;
 * - `scriptsEnabled`: RichText fields may carry a custom `.js` file (Upload Custom JS, View JS
 *   File). Only organization admins may turn it on or off.
 */

export interface RichTextSettings {
  rightToLeft: boolean;
  menuBar: boolean;
  customQuoteFormats: boolean;
  scriptsEnabled: boolean;
}

export const richTextSettingKeys = ['rightToLeft', 'menuBar', 'customQuoteFormats', 'scriptsEnabled'] as const satisfies readonly (keyof RichTextSettings)[];

/** The settings only organization admins may change. */
export const adminOnlyRichTextSettings: readonly (keyof RichTextSettings)[] = ['scriptsEnabled'];

export const defaultRichTextSettings: RichTextSettings = { rightToLeft: false, menuBar: false, customQuoteFormats: false, scriptsEnabled: false };

/** JSON Schema of a change of `settings.richText`: any of the switches. */
export const richTextSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: Object.fromEntries(richTextSettingKeys.map((key) => [key, { type: 'boolean' }])),
} as const;

/** The rich-text settings kept in a project's settings, every switch present. */
export function readRichTextSettings(settings: unknown): RichTextSettings {
  const stored = settings && typeof settings === 'object' ? (settings as { richText?: unknown }).richText : undefined;
  const out = { ...defaultRichTextSettings };
  if (!stored || typeof stored !== 'object') return out;
  for (const key of richTextSettingKeys) out[key] = (stored as Record<string, unknown>)[key] === true;
  return out;
}

/**
 * Formats of a quote (with `customQuoteFormats`): kept as `data-quote-format` on the
 * `<blockquote>`, so a field's custom CSS (and the app showing the text) can style each.
 */
export const quoteFormats = ['pull', 'citation', 'note'] as const;
export type QuoteFormat = (typeof quoteFormats)[number];

/** Markup a stored RichText value may hold; everything else is removed by the server. */
export const richTextMarkup = {
  tags: [
    'p', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'a', 'img', 'blockquote', 'pre', 'code', 'hr',
    'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'sub', 'sup', 'span', 'div',
    'table', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
  ],
  attributes: ['href', 'target', 'rel', 'src', 'alt', 'title', 'width', 'height', 'colspan', 'rowspan', 'colwidth', 'dir', 'start', 'type', 'data-quote-format', 'style'],
  /** `style` only on table parts and only widths in pixels, as the editor writes them. */
  styledTags: ['table', 'col', 'td', 'th'],
  stylePattern: /^\s*(?:(?:min-)?width:\s*\d{1,5}(?:\.\d{1,3})?px;?\s*)+$/,
  /** Link schemes (`href`). */
  linkProtocols: ['http:', 'https:', 'mailto:'],
  /** Image schemes (`src`); relative addresses only under `/files/` (this server's stored files). */
  imageProtocols: ['http:', 'https:'],
  filesPath: '/files/',
} as const;

/** Whether `value` may be a link address: http(s) or mailto, whatever spaces, tabs or entities hide. */
export function isSafeLink(value: string): boolean {
  return protocolOf(value, richTextMarkup.linkProtocols);
}

/** Whether `value` may be an image address: http(s), or this server's `/files/…`. */
export function isSafeImage(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.startsWith(richTextMarkup.filesPath) && !trimmed.startsWith('//')) return true;
  return protocolOf(value, richTextMarkup.imageProtocols);
}

function protocolOf(value: string, allowed: readonly string[]): boolean {
  // The URL parser drops the tabs, newlines and leading controls a browser drops, so
  // "java\tscript:" is seen as the browser would see it. Relative addresses have no scheme and are refused.
  try {
    const url = new URL(value);
    return allowed.includes(url.protocol);
  } catch {
    return false;
  }
}
