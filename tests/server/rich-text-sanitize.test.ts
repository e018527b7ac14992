/**
 * RichText values are sanitised on the server with an allow-list (server/content/sanitize.ts):
 * a corpus of hostile inputs from the usual XSS cheat-sheets (OWASP, PortSwigger, DOMPurify's own
 * mutation-XSS cases) leaves nothing that can run, in the sanitiser itself and through every item
 * write (create, update, nested create and update) on every database; what the editor writes
 * (headings, lists, links, images, tables, quotes, right-to-left) comes back unchanged.
 */
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { sanitizeRichText } from '../../server/content/sanitize.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

/** Hostile inputs; each must come out harmless. */
export const hostile: string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<IMG SRC=javascript:alert(&quot;XSS&quot;)>',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  '<a href="jav&#x09;ascript:alert(1)">tab</a>',
  '<a href="jav&#x0A;ascript:alert(1)">newline</a>',
  '<a href=" &#14;  javascript:alert(1)">leading controls</a>',
  '<a href="JaVaScRiPt:alert(1)">case</a>',
  '<a href="javascript&colon;alert(1)">named colon</a>',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><foreignObject><iframe srcdoc="<script>alert(1)</script>"></iframe></foreignObject></svg>',
  '<svg><foreignObject><p><img src=x onerror=alert(1)></p></foreignObject></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
  '<math><mi xlink:href="data:x,<script>alert(4)</script>">',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  '<xmp><p title="</xmp><img src=x onerror=alert(1)>">',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="data:text/html,<script>alert(1)</script>">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<form><button formaction="javascript:alert(1)">go</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<div style="background-image: url(javascript:alert(1))">style url</div>',
  '<div style="width: expression(alert(1))">style expression</div>',
  '<style>@import "javascript:alert(1)";</style>',
  '<style>*{background:url("//evil.example/track")}</style><p>after</p>',
  '<link rel=stylesheet href="//evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<p onclick="alert(1)" onmouseover="alert(2)">handlers</p>',
  '<table background="javascript:alert(1)"><tr><td onmouseover=alert(1)>x</td></tr></table>',
  '<a href="https://ok.example" onclick="alert(1)">ok link, bad handler</a>',
  '<img src="https://ok.example/a.png" srcset="javascript:alert(1) 1x">',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<template><script>alert(1)</script></template>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">zeros</a>',
  '<a href="\\u006Aavascript:alert(1)">escaped</a>',
  '<isindex type=image src=1 onerror=alert(1)>',
  '<marquee onstart=alert(1)>',
  '<blockquote data-quote-format="x" onclick=alert(1)>q</blockquote>',
  '<p dir="rtl&quot; onmouseover=&quot;alert(1)">dir</p>',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<a href="//evil.example/">protocol relative</a>',
  '<table style="min-width: 50px; background: url(javascript:alert(1))"><tr><td style="width: expression(alert(1))">x</td></tr></table>',
  '<td style="width:10px;behavior:url(x.htc)">cell</td>',
  '<img src="//evil.example/a.png">',
];

const forbiddenElements = 'script, style, iframe, frame, object, embed, svg, math, form, input, button, textarea, select, base, meta, link, template, noscript, xmp, video, audio, source, details, marquee, body, isindex';

/** Fails when the HTML, parsed as a browser would, holds anything that can run or load a document. */
function expectHarmless(html: string, input: string) {
  for (const parse of [(text: string) => new JSDOM(`<!doctype html><body>${text}`).window.document.body, (text: string) => {
    // Mutation XSS: what a second parse of the serialised output builds must be harmless too.
    const first = new JSDOM(`<!doctype html><body>${text}`).window.document.body.innerHTML;
    return new JSDOM(`<!doctype html><body>${first}`).window.document.body;
  }]) {
    const body = parse(html);
    expect(body.querySelectorAll(forbiddenElements).length, `${input} → ${html}`).toBe(0);
    for (const element of body.querySelectorAll('*')) {
      for (const attr of element.attributes) {
        const name = attr.name.toLowerCase();
        expect(name.startsWith('on'), `${input} → ${html}: ${name}`).toBe(false);
        if (name === 'style') expect(attr.value, `${input} → ${html}`).toMatch(/^\s*((min-)?width:\s*\d+(\.\d+)?px;?\s*)+$/);
        expect(['srcdoc', 'formaction', 'action', 'srcset', 'background', 'xlink:href', 'data', 'content', 'http-equiv'], `${input} → ${html}: ${name}`).not.toContain(name);
        if (name === 'href' || name === 'src') {
          const url = new URL(attr.value, 'https://larder.test/');
          expect(['http:', 'https:', 'mailto:'], `${input} → ${html}: ${attr.value}`).toContain(url.protocol);
          if (!attr.value.startsWith('/files/')) expect(attr.value, `${input} → ${html}`).toMatch(/^(https?:|mailto:)/i);
        }
      }
    }
  }
  expect(html).not.toMatch(/javascript|vbscript|<script|onerror|onload|expression\(/i);
}

/** What the editor writes: each comes back exactly as it went in. */
const benign: string[] = [
  '<h1>Title</h1><h2>Sub</h2><h3>Third</h3><p>Plain <strong>bold</strong> <em>italic</em> <u>under</u> <s>struck</s> <code>code</code></p>',
  '<ul><li><p>one</p></li><li><p>two</p><ul><li><p>nested</p></li></ul></li></ul><ol start="3"><li><p>three</p></li></ol>',
  '<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com/path?q=1#x">a link</a> and <a href="mailto:someone@example.com">mail</a></p>',
  '<p><img src="https://cdn.example.com/a.png" alt="A picture"><img src="/files/p/abc/a/0123456789abcdef.png" alt=""></p>',
  '<table style="min-width: 50px"><colgroup><col style="min-width: 25px"><col style="width: 200px"></colgroup><tbody><tr><td colspan="1" rowspan="1"><p>x</p></td><td colspan="1" rowspan="1"><p>y</p></td></tr></tbody></table>',
  '<table><tbody><tr><th colspan="1" rowspan="1"><p>Head</p></th><th colspan="1" rowspan="1" colwidth="200"><p>Head 2</p></th></tr><tr><td colspan="1" rowspan="1"><p>a</p></td><td colspan="1" rowspan="1"><p>b</p></td></tr></tbody></table>',
  '<blockquote><p>A quote</p></blockquote><blockquote data-quote-format="pull"><p>A pull quote</p></blockquote>',
  '<p dir="rtl">مرحبا بالعالم</p><h2 dir="ltr">Left to right</h2><p dir="auto">auto</p>',
  '<pre><code>const a = 1 &lt; 2;</code></pre><hr><p>after &amp; before</p>',
];

describe('the rich-text sanitiser', () => {
  it('has a corpus of at least 30 hostile inputs', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30);
  });

  it.each(hostile)('leaves nothing that can run of %s', (input) => {
    const output = sanitizeRichText(input);
    expectHarmless(output, input);
    // Stable: sanitising what it stored changes nothing.
    expect(sanitizeRichText(output)).toBe(output);
  });

  it.each(benign)('keeps what the editor writes: %s', (input) => {
    expect(sanitizeRichText(input)).toBe(input);
  });

  it('keeps the text around what it removes and gives a new tab no opener', () => {
    expect(sanitizeRichText('<p>before<script>alert(1)</script>after</p>')).toBe('<p>beforeafter</p>');
    expect(sanitizeRichText('<p onclick="x()">kept</p>')).toBe('<p>kept</p>');
    expect(sanitizeRichText('<a href="https://a.example" target="_blank">x</a>')).toBe('<a href="https://a.example" target="_blank" rel="noopener noreferrer">x</a>');
    expect(sanitizeRichText('<a href="https://a.example" target="_top">x</a>')).toBe('<a href="https://a.example">x</a>');
  });
});

describe.each(databaseKinds)('rich text through item writes on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  const attack = '<p>Hello</p><img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">x</a><svg><foreignObject><iframe srcdoc="<script>alert(4)</script>"></iframe></foreignObject></svg>';
  const clean = '<p>Hello</p><img><a>x</a>';

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'posts',
      name: 'Posts',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Body', slug: 'body', type: code('RichText'), required: true },
        { name: 'Sections', slug: 'sections', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: code('RichText') }] },
      ],
    });
  });
  afterAll(() => t?.close());

  it('stores and answers the sanitised value on create, read, list and update', async () => {
    const created = await createItem(f, 'posts', { title: 'One', body: attack });
    expect(created.body).toBe(clean);
    const read = json(await f.call('GET', `collection/posts/item/${created._id}`));
    expect(read.body).toBe(clean);
    const list = json(await f.call('GET', 'collection/posts/item'));
    expect(list.find((item: { _id: string }) => item._id === created._id).body).toBe(clean);

    const updated = await f.call('PUT', `collection/posts/item/${created._id}`, { body: '<h2 onmouseover="alert(1)">Heading</h2><style>*{color:red}</style>' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(json(updated).body).toBe('<h2>Heading</h2>');
    expect(json(await f.call('GET', `collection/posts/item/${created._id}`)).body).toBe('<h2>Heading</h2>');
  });

  it('sanitises nested items on create and update', async () => {
    const parent = await createItem(f, 'posts', { title: 'Two', body: '<p>x</p>' });
    const nested = await createItem(f, 'posts', { text: attack }, { item: parent._id, nestedID: 'sections' });
    expect(nested.text).toBe(clean);
    const changed = await f.call('PUT', `collection/posts/item/${parent._id}?nestedID=sections.${nested._id}`, { text: '<blockquote onclick="x()"><p>q</p></blockquote>' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json(changed).text).toBe('<blockquote><p>q</p></blockquote>');
    const read = json(await f.call('GET', `collection/posts/item/${parent._id}?nestedID=sections.${nested._id}`));
    expect(read.text).toBe('<blockquote><p>q</p></blockquote>');
  });

  it('treats a value that sanitises to nothing as empty, so a required field refuses it', async () => {
    const response = await f.call('POST', 'collection/posts/item', { title: 'Three', body: '<script>alert(1)</script>' });
    expect(response.statusCode, response.body).toBe(400);
    expect(json(response).errors.map((e: { path: string }) => e.path)).toEqual(['body']);
  });

  it.each(benign)('stores what the editor writes unchanged: %s', async (value) => {
    const created = await createItem(f, 'posts', { title: 'Benign', body: value });
    expect(created.body).toBe(value);
  });
});
