/**
 * The TipTap extensions of the rich-text editor: StarterKit (headings, lists, quotes, links with
 * http/https/mailto only, bold, italic, undo), images, tables, a `dir` attribute on every block
 * (right-to-left paragraphs), and a quote's format (`data-quote-format`). What it writes is
 * exactly what the server's sanitiser keeps (definitions/rich-text.ts).
 */
import { Extension, type AnyExtension } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import { isSafeImage, isSafeLink, quoteFormats } from '../../../definitions/rich-text.ts';

/** Nodes that take a direction. */
export const directedNodes = ['paragraph', 'heading', 'blockquote', 'bulletList', 'orderedList', 'listItem', 'tableCell', 'tableHeader'] as const;

const BlockDirection = Extension.create({
  name: 'blockDirection',
  addGlobalAttributes() {
    return [
      {
        types: [...directedNodes],
        attributes: {
          dir: {
            default: null,
            parseHTML: (element: HTMLElement) => {
              const dir = element.getAttribute('dir');
              return dir === 'ltr' || dir === 'rtl' || dir === 'auto' ? dir : null;
            },
            renderHTML: (attributes: { dir?: string | null }) => (attributes.dir ? { dir: attributes.dir } : {}),
          },
        },
      },
    ];
  },
});

const QuoteFormat = Extension.create({
  name: 'quoteFormat',
  addGlobalAttributes() {
    return [
      {
        types: ['blockquote'],
        attributes: {
          quoteFormat: {
            default: null,
            parseHTML: (element: HTMLElement) => {
              const format = element.getAttribute('data-quote-format');
              return format && (quoteFormats as readonly string[]).includes(format) ? format : null;
            },
            renderHTML: (attributes: { quoteFormat?: string | null }) => (attributes.quoteFormat ? { 'data-quote-format': attributes.quoteFormat } : {}),
          },
        },
      },
    ];
  },
});

export function richTextExtensions(): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3, 4] },
      // No empty paragraph forced after a last table or heading: the stored HTML is what was written.
      trailingNode: false,
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        protocols: ['mailto'],
        isAllowedUri: (url) => isSafeLink(url),
        HTMLAttributes: { target: '_blank', rel: 'noopener noreferrer nofollow' },
      },
    }),
    Image.configure({ allowBase64: false, HTMLAttributes: {} }).extend({
      parseHTML() {
        return [{ tag: 'img[src]', getAttrs: (element: HTMLElement) => (isSafeImage(element.getAttribute('src') ?? '') ? null : false) }];
      },
    }),
    TableKit.configure({ table: { resizable: false } }),
    BlockDirection,
    QuoteFormat,
  ];
}
