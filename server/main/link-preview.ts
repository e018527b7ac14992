/**
 * Link previews: a page's title, description and image, read from its Open Graph,
 * Twitter and plain HTML metadata; and the preview image itself, re-encoded, for the console's card.
 * Every fetch goes through the URL guard (server/lib/url-guard.ts). docs/security.md "Outbound requests".
 */
import htmlEncodingSniffer from 'html-encoding-sniffer';
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import sharp from 'sharp';
import { fileTypeFromBuffer } from 'file-type';
import { linkPreview } from '../../definitions/constants.ts';
import { contentLimits } from '../../definitions/content.ts';
import { fileLimits } from '../../definitions/files.ts';
import { OutboundError, type UrlGuard } from '../lib/url-guard.ts';
import type { LinkPreview } from '../../definitions/schemas/link-preview.ts';

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document;
type Element = DefaultTreeAdapterTypes.Element;

export type { LinkPreview };

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
const IMAGE_TYPES = /^image\//i;

/** Text with its white space collapsed, cut to `max` characters (never inside a surrogate pair); null when empty. */
function clean(text: string | undefined, max: number): string | null {
  if (text === undefined) return null;
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (!collapsed) return null;
  return Array.from(collapsed).slice(0, max).join('');
}

const attribute = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;

/** The elements of a document in order, without descending into templates (their content is not the page's). */
function* elements(node: Node): Generator<Element> {
  const children = 'childNodes' in node ? node.childNodes : [];
  for (const child of children) {
    if ('tagName' in child) {
      yield child;
      if (child.tagName !== 'template') yield* elements(child);
    }
  }
}

function textOf(element: Element): string {
  return element.childNodes.map((child) => ('value' in child && child.nodeName === '#text' ? child.value : '')).join('');
}

/** An http(s) address made absolute against the page, or null. */
function absolute(value: string | undefined, base: URL): string | null {
  if (!value?.trim()) return null;
  try {
    const url = new URL(value.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.href.length <= contentLimits.urlMax ? url.href : null;
  } catch {
    return null;
  }
}

/** Reads the preview out of a page's bytes: Open Graph first, then Twitter cards, then `<title>` and the description meta tag. */
export function previewOfHtml(bytes: Buffer, contentType: string, pageUrl: URL): LinkPreview {
  const label = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  let encoding = 'utf-8';
  try {
    encoding = htmlEncodingSniffer(bytes, { ...(label ? { transportLayerEncodingLabel: label } : {}), defaultEncoding: 'utf-8' });
  } catch {
    // An unknown label: read as UTF-8.
  }
  let text: string;
  try {
    text = new TextDecoder(encoding).decode(bytes);
  } catch {
    text = new TextDecoder('utf-8').decode(bytes);
  }
  const document = parse(text);
  const meta = new Map<string, string>();
  let title: string | undefined;
  let base: URL = pageUrl;
  let baseSeen = false;
  let imageSource: string | undefined;
  for (const element of elements(document)) {
    if (element.tagName === 'meta') {
      const key = (attribute(element, 'property') ?? attribute(element, 'name'))?.trim().toLowerCase();
      const content = attribute(element, 'content');
      // The first of each key counts (og:image may repeat: the first is the main image).
      if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
    } else if (element.tagName === 'title' && title === undefined && element.namespaceURI === 'http://www.w3.org/1999/xhtml') {
      title = textOf(element);
    } else if (element.tagName === 'base' && !baseSeen) {
      baseSeen = true;
      const href = absolute(attribute(element, 'href'), pageUrl);
      if (href) base = new URL(href);
    } else if (element.tagName === 'link' && imageSource === undefined && /(^|\s)image_src(\s|$)/i.test(attribute(element, 'rel') ?? '')) {
      imageSource = attribute(element, 'href');
    }
  }
  const first = (...keys: string[]) => keys.map((key) => meta.get(key)).find((value) => value !== undefined && value.trim() !== '');
  return {
    title: clean(first('og:title', 'twitter:title') ?? title, linkPreview.titleMax),
    description: clean(first('og:description', 'twitter:description', 'description'), linkPreview.descriptionMax),
    image: absolute(first('og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src') ?? imageSource, base),
  };
}

/** Fetches a page through the guard and reads its preview. An image address previews as itself. */
export async function generatePreview(guard: UrlGuard, address: string): Promise<LinkPreview> {
  const response = await guard.fetch(address, {
    maxBytes: linkPreview.pageBytesMax,
    overflow: 'truncate',
    accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
    wantBody: (type) => HTML_TYPES.test(type) || type === '',
  });
  if (IMAGE_TYPES.test(response.contentType)) return { title: null, description: null, image: response.url.href };
  if (!HTML_TYPES.test(response.contentType) && response.contentType !== '') return { title: null, description: null, image: null };
  return previewOfHtml(response.body, response.contentType, response.url);
}

/** Raster types a preview image may have; anything else (SVG, HTML, unknown bytes) is not shown. */
const PREVIEW_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/**
 * Fetches a preview image through the guard and re-encodes it as a small WebP: the bytes must be
 * a raster image (read from the bytes, not the headers), at most `imageBytesMax`, and nothing of
 * the original file but its pixels reaches the console.
 */
export async function previewImage(guard: UrlGuard, address: string): Promise<Buffer> {
  const response = await guard.fetch(address, { maxBytes: linkPreview.imageBytesMax, overflow: 'fail', accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9' });
  const type = await fileTypeFromBuffer(response.body);
  if (!type || !PREVIEW_IMAGE_TYPES.has(type.mime)) throw new OutboundError('unreachable', 'not an image');
  try {
    return await sharp(response.body, { limitInputPixels: fileLimits.thumbnailInputPixelsMax, failOn: 'error' })
      .rotate()
      .resize({ width: linkPreview.imageSizePx, height: linkPreview.imageSizePx, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
  } catch {
    throw new OutboundError('unreachable', 'the image cannot be read');
  }
}
