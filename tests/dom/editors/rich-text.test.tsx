/**
 * The RichText editor (renderers/fields/rich-text): an accessible toolbar (one tab stop, arrows,
 * aria-pressed), headings, lists, links (dialog, refused schemes, removal), images by address and
 * by upload, tables (insert, rows and columns), the project's switches (right-to-left, menu bar,
 * quote formats), the field's custom CSS confined to the editor, and the custom script setting
 * (shown only while scripts are on; upload errors as an alert; View JS File as text).
 */
import '@testing-library/jest-dom/vitest';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import { defaultRichTextSettings, type RichTextSettings } from '../../../definitions/rich-text.ts';
import { EditorEnvironmentProvider } from '../../../renderers/fields/editor-environment.ts';
import { FieldEditor } from '../../../renderers/fields/FieldEditor.tsx';
import { CustomScriptSetting } from '../../../renderers/fields/rich-text/CustomScriptSetting.tsx';
import { RichTextDisplay } from '../../../renderers/fields/rich-text/Display.tsx';
import { RichTextSettingsSection } from '../../../src/screens/project/RichTextSettingsSection.tsx';
import { RichTextServicesProvider, type RichTextServices } from '../../../renderers/fields/rich-text/rich-text-services.ts';
import { scopeCss, splitSelectors } from '../../../renderers/fields/rich-text/scope-css.ts';
import { PlatformApiProvider } from '../../../src/api/platform-queries.ts';
import type { PlatformApi, Project } from '../../../src/api/platform.ts';
import { ORG, PROJECT, scope } from './support.tsx';

vi.mock('../../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

beforeAll(() => {
  // ProseMirror measures the selection to scroll it into view; jsdom has no layout.
  const rect = { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) };
  Range.prototype.getClientRects ??= () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
  document.elementFromPoint ??= () => null;
});
afterEach(cleanup);

const richText = (overrides: Partial<SchemaField> = {}): SchemaField => ({ id: 'f2', name: 'Body', slug: 'body', type: 2, ...overrides });

function projectWith(settings: Partial<RichTextSettings>): Project {
  return {
    id: PROJECT,
    name: 'P',
    description: '',
    organizationID: ORG,
    createdDate: '2025-01-01T00:00:00.000Z',
    collections: [],
    webhooks: [],
    files: [],
    settings: { richText: { ...defaultRichTextSettings, ...settings } },
  } as Project;
}

function services(overrides: Partial<RichTextServices> = {}): RichTextServices {
  return {
    uploadAsset: vi.fn(async (_scope, file: File) => ({ url: `https://larder.test/files/p/${PROJECT}/a/0123456789abcdef.${file.name.split('.').pop()}`, name: file.name, extension: 'png', contentType: 'image/png', size: file.size })),
    readText: vi.fn(async () => 'console.log("hello");'),
    ...overrides,
  };
}

function wrap(children: React.ReactNode, settings: Partial<RichTextSettings>, svc: RichTextServices) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const api = { project: vi.fn(async () => projectWith(settings)) } as unknown as PlatformApi;
  return (
    <QueryClientProvider client={queryClient}>
      <PlatformApiProvider value={api}>
        <RichTextServicesProvider value={svc}>
          <EditorEnvironmentProvider value={{ scope }}>{children}</EditorEnvironmentProvider>
        </RichTextServicesProvider>
      </PlatformApiProvider>
    </QueryClientProvider>
  );
}

async function renderRichText(options: { value?: string; field?: SchemaField; settings?: Partial<RichTextSettings>; services?: RichTextServices; error?: string } = {}) {
  const onChange = vi.fn();
  const svc = options.services ?? services();
  let setOutside: (value: string) => void = () => {};
  function Form() {
    const [value, setValue] = useState<unknown>(options.value ?? null);
    setOutside = setValue;
    return (
      <FieldEditor
        field={options.field ?? richText()}
        value={value}
        error={options.error}
        onChange={(next) => {
          onChange(next);
          setValue(next);
        }}
      />
    );
  }
  const view = render(wrap(<Form />, options.settings ?? {}, svc));
  // The editor is its own chunk: the first import takes a while.
  const toolbar = await screen.findByRole('toolbar', { name: 'Body: formatting' }, { timeout: 15_000 });
  const textbox = document.querySelector<HTMLElement>('.rich-text-content')!;
  expect(screen.getByRole('textbox', { name: 'Body' })).toBe(textbox);
  const lastValue = () => onChange.mock.calls.at(-1)?.[0] as string | null | undefined;
  return { ...view, toolbar, textbox, onChange, lastValue, services: svc, setOutside: (value: string) => setOutside(value) };
}

const tool = (toolbar: HTMLElement, name: string) => within(toolbar).getByRole('button', { name });

describe('the rich-text toolbar', () => {
  it('is one labelled toolbar with a single tab stop that arrows move through', async () => {
    const user = userEvent.setup();
    const { toolbar } = await renderRichText({ value: '<p>Hello</p>' });
    const focusable = within(toolbar)
      .getAllByRole('button')
      .filter((button) => button.tabIndex === 0);
    expect(focusable).toHaveLength(1);
    expect(focusable[0]).toHaveAccessibleName('Heading 1');
    focusable[0]!.focus();
    await user.keyboard('{ArrowRight}');
    expect(tool(toolbar, 'Heading 2')).toHaveFocus();
    await user.keyboard('{End}');
    // Undo and redo are disabled (nothing to undo yet), so the last enabled tool is the end.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Insert table');
    // Disabled table tools are skipped outside a table.
    expect(tool(toolbar, 'Add row')).toBeDisabled();
    expect(tool(toolbar, 'Heading 1')).toHaveAttribute('aria-pressed', 'false');
    expect(within(toolbar).getAllByRole('group').map((group) => group.getAttribute('aria-label'))).toEqual(['Headings', 'Text style', 'Lists and quotes', 'Insert', 'Table', 'History']);
  });

  it('makes headings, lists and quotes, and says which are on', async () => {
    const user = userEvent.setup();
    const { toolbar, lastValue } = await renderRichText({ value: '<p>Hello</p>' });
    await user.click(tool(toolbar, 'Heading 1'));
    expect(lastValue()).toBe('<h1>Hello</h1>');
    expect(tool(toolbar, 'Heading 1')).toHaveAttribute('aria-pressed', 'true');
    await user.click(tool(toolbar, 'Heading 1'));
    expect(lastValue()).toBe('<p>Hello</p>');
    await user.click(tool(toolbar, 'Bulleted list'));
    expect(lastValue()).toBe('<ul><li><p>Hello</p></li></ul>');
    expect(tool(toolbar, 'Bulleted list')).toHaveAttribute('aria-pressed', 'true');
    await user.click(tool(toolbar, 'Numbered list'));
    expect(lastValue()).toBe('<ol><li><p>Hello</p></li></ol>');
    await user.click(tool(toolbar, 'Numbered list'));
    await user.click(tool(toolbar, 'Block quote'));
    expect(lastValue()).toBe('<blockquote><p>Hello</p></blockquote>');
  });

  it('adds, changes and removes links through its dialog, refusing other schemes', async () => {
    const user = userEvent.setup();
    const { toolbar, lastValue } = await renderRichText({ value: '<p>Hello</p>' });
    await user.click(tool(toolbar, 'Link'));
    const dialog = await screen.findByRole('dialog', { name: 'Add link' });
    const address = within(dialog).getByLabelText('Address');
    await user.type(address, 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText('Enter an http, https or mailto address.')).toBeInTheDocument();
    await user.clear(address);
    await user.type(address, 'example.com/page');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(lastValue()).toBe('<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com/page">https://example.com/page</a>Hello</p>');

    // The cursor sits in the link now: the dialog edits it and can remove it.
    await user.click(tool(toolbar, 'Link'));
    const edit = await screen.findByRole('dialog', { name: 'Edit link' });
    expect(within(edit).getByLabelText('Address')).toHaveValue('https://example.com/page');
    await user.click(within(edit).getByRole('button', { name: 'Remove link' }));
    expect(lastValue()).toBe('<p>https://example.com/pageHello</p>');
  });

  it('links selected words and leaves the caret after the link, so what is typed next cannot replace them', async () => {
    const user = userEvent.setup();
    const { toolbar, textbox, lastValue } = await renderRichText({ value: '<p>Read the docs</p>' });
    const editor = (textbox as HTMLElement & { editor: { state: { selection: { empty: boolean; from: number } }; commands: { setTextSelection(range: { from: number; to: number }): boolean } } }).editor;
    editor.commands.setTextSelection({ from: 1, to: 14 });
    await user.click(tool(toolbar, 'Link'));
    const dialog = await screen.findByRole('dialog', { name: 'Add link' });
    await user.type(within(dialog).getByLabelText('Address'), 'example.com/docs');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(lastValue()).toBe('<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com/docs">Read the docs</a></p>');
    expect(editor.state.selection.empty).toBe(true);
    expect(editor.state.selection.from).toBe(14);
  });

  it('opens the link dialog with Ctrl+K', async () => {
    const user = userEvent.setup();
    const { textbox } = await renderRichText({ value: '<p>Hello</p>' });
    textbox.focus();
    await user.keyboard('{Control>}k{/Control}');
    expect(await screen.findByRole('dialog', { name: 'Add link' })).toBeInTheDocument();
  });

  it('inserts a 2×2 table and adds and removes its rows and columns', async () => {
    const user = userEvent.setup();
    const { toolbar, lastValue } = await renderRichText({ value: '<p>Hello</p>' });
    await user.click(tool(toolbar, 'Insert table'));
    const rows = () => (lastValue() ?? '').match(/<tr>/g)?.length ?? 0;
    const cells = () => (lastValue() ?? '').match(/<td/g)?.length ?? 0;
    expect(rows()).toBe(2);
    expect(cells()).toBe(4);
    expect(tool(toolbar, 'Insert table')).toBeDisabled();
    await user.click(tool(toolbar, 'Add row'));
    expect(rows()).toBe(3);
    await user.click(tool(toolbar, 'Add column'));
    expect(cells()).toBe(9);
    await user.click(tool(toolbar, 'Delete column'));
    expect(cells()).toBe(6);
    await user.click(tool(toolbar, 'Delete row'));
    expect(rows()).toBe(2);
    await user.click(tool(toolbar, 'Delete table'));
    expect(lastValue()).not.toContain('<table');
  });

  it('inserts images by address and by upload as a project asset', async () => {
    const user = userEvent.setup();
    const svc = services();
    const { toolbar, lastValue } = await renderRichText({ value: '<p>Hello</p>', services: svc });
    await user.click(tool(toolbar, 'Image'));
    let dialog = await screen.findByRole('dialog', { name: 'Insert image' });
    await user.type(within(dialog).getByLabelText('Image address (http or https)'), 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
    expect(within(dialog).getByText('Enter an http or https image address, or upload a file.')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Image address (http or https)'));
    await user.type(within(dialog).getByLabelText('Alternative text'), 'A cat');
    await user.type(within(dialog).getByLabelText('Image address (http or https)'), 'https://cdn.example.com/cat.png');
    await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
    expect(lastValue()).toContain('<img src="https://cdn.example.com/cat.png" alt="A cat">');

    await user.click(tool(toolbar, 'Image'));
    dialog = await screen.findByRole('dialog', { name: 'Insert image' });
    await user.upload(within(dialog).getByLabelText('Or upload an image'), new File([new Uint8Array([137, 80, 78, 71])], 'dog.png', { type: 'image/png' }));
    await waitFor(() => expect(lastValue()).toContain(`<img src="https://larder.test/files/p/${PROJECT}/a/0123456789abcdef.png"`));
    expect(svc.uploadAsset).toHaveBeenCalledWith(scope, expect.objectContaining({ name: 'dog.png' }));
  });

  it('shows right-to-left buttons, quote formats and the menu bar only when the project turns them on', async () => {
    const user = userEvent.setup();
    const off = await renderRichText({ value: '<p>Hello</p>' });
    expect(within(off.toolbar).queryByRole('button', { name: 'Right to left' })).not.toBeInTheDocument();
    expect(within(off.toolbar).queryByRole('button', { name: 'Pull quote' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menubar')).not.toBeInTheDocument();
    cleanup();

    const on = await renderRichText({ value: '<p>Hello</p>', settings: { rightToLeft: true, customQuoteFormats: true, menuBar: true } });
    const rtl = await within(on.toolbar).findByRole('button', { name: 'Right to left' });
    await user.click(rtl);
    expect(on.lastValue()).toBe('<p dir="rtl">Hello</p>');
    expect(rtl).toHaveAttribute('aria-pressed', 'true');
    await user.click(tool(on.toolbar, 'Left to right'));
    expect(on.lastValue()).toBe('<p dir="ltr">Hello</p>');
    await user.click(tool(on.toolbar, 'Pull quote'));
    expect(on.lastValue()).toBe('<blockquote data-quote-format="pull"><p dir="ltr">Hello</p></blockquote>');
    expect(tool(on.toolbar, 'Pull quote')).toHaveAttribute('aria-pressed', 'true');
    expect(tool(on.toolbar, 'Block quote')).toHaveAttribute('aria-pressed', 'false');
    await user.click(tool(on.toolbar, 'Pull quote'));
    expect(on.lastValue()).toBe('<p dir="ltr">Hello</p>');

    const menubar = screen.getByRole('menubar', { name: 'Body: menu bar' });
    await user.click(within(menubar).getByRole('menuitem', { name: 'Insert' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Horizontal line' }));
    expect(on.lastValue()).toContain('<hr>');
  });

  it('marks the text invalid and describes it by the message from outside', async () => {
    const { textbox } = await renderRichText({ value: '<p>Hello</p>', error: 'Body is a required field' });
    await waitFor(() => expect(textbox).toHaveAttribute('aria-invalid', 'true'));
    expect(textbox).toHaveAccessibleDescription('Body is a required field');
  });

  it('takes a new value from outside and reports an emptied text as null', async () => {
    const user = userEvent.setup();
    const { toolbar, setOutside, textbox, lastValue } = await renderRichText({ value: '<p>Hello</p>' });
    setOutside('<h2>Replaced</h2>');
    await waitFor(() => expect(textbox.querySelector('h2')).toHaveTextContent('Replaced'));
    expect(lastValue()).toBeUndefined();
    await user.click(tool(toolbar, 'Heading 2'));
    expect(lastValue()).toBe('<p>Replaced</p>');
  });

  it('applies the field’s custom CSS inside the editor only', async () => {
    const { container } = await renderRichText({
      value: '<p>Hello</p>',
      field: richText({ richTextCustomCSS: 'p { color: red } body, .console-nav { outline: 1px solid blue } @import url(x.css); @media (min-width: 1px) { h1 { margin: 0 } }' }),
    });
    const scopeElement = container.querySelector('[data-rich-text-scope]')!;
    const scopeSelector = `[data-rich-text-scope="${scopeElement.getAttribute('data-rich-text-scope')}"]`;
    const css = container.querySelector('style')!.textContent!;
    expect(css).toContain(`${scopeSelector} p {`);
    expect(css).toContain(`${scopeSelector}, ${scopeSelector} .console-nav {`);
    expect(css).not.toContain('@import');
    expect(css).toMatch(/@media[^{]*\{ \[data-rich-text-scope="[^"]+"\] h1 \{/);
  });
});

describe('scopeCss', () => {
  const s = '[data-rich-text-scope="x"]';
  it('prefixes every selector, root selectors standing for the scope', () => {
    expect(scopeCss('a, b > c { color: red }', s)).toBe(`${s} a, ${s} b > c { color: red; }`);
    expect(scopeCss(':root { --x: 1 } html body p { margin: 0 } body.dark { color: red }', s)).toBe(`${s} { --x: 1; }\n${s} p { margin: 0px; }\n${s}.dark { color: red; }`);
  });
  it('drops at-rules that reach beyond the editor and keeps grouping ones scoped', () => {
    const out = scopeCss('@font-face { font-family: x; src: url(x.woff) } @keyframes spin { to { opacity: 0 } } @supports (display: grid) { div { display: grid } } p { color: blue }', s);
    expect(out).not.toMatch(/font-face|keyframes/);
    expect(out).toContain(`@supports (display: grid) { ${s} div { display: grid; } }`);
    expect(out).toContain(`${s} p { color: blue; }`);
  });
  it('ignores broken CSS without throwing and splits selector lists only at top-level commas', () => {
    expect(() => scopeCss('p { color: red', s)).not.toThrow();
    expect(scopeCss('}}} {{{', s)).toBe('');
    expect(splitSelectors(':is(a, b) c, [title="x,y"], d')).toEqual([':is(a, b) c', '[title="x,y"]', 'd']);
  });
});

describe('the custom script setting', () => {
  function renderSetting(settings: Partial<RichTextSettings>, svc: RichTextServices, value?: string) {
    const onChange = vi.fn();
    render(wrap(<CustomScriptSetting id="js" fieldName="Body" value={value} onChange={onChange} disabled={false} scope={scope} />, settings, svc));
    return onChange;
  }

  it('is not offered while scripts are off', async () => {
    renderSetting({}, services());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('button', { name: 'Upload Custom JS' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View JS File' })).not.toBeInTheDocument();
  });

  it('uploads a .js file as a project asset, refuses other files and shows an upload error as an alert', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const svc = services();
    const onChange = renderSetting({ scriptsEnabled: true }, svc);
    await screen.findByRole('button', { name: 'Upload Custom JS' });
    const input = document.getElementById('js') as HTMLInputElement;
    await user.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a .js file.');
    await user.upload(input, new File(['console.log(1)'], 'widget.js', { type: 'text/javascript' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(`https://larder.test/files/p/${PROJECT}/a/0123456789abcdef.js`));
    cleanup();

    const failing = services({ uploadAsset: vi.fn(async () => Promise.reject(new Error('The file is too large'))) });
    renderSetting({ scriptsEnabled: true }, failing);
    await screen.findByRole('button', { name: 'Upload Custom JS' });
    await user.upload(document.getElementById('js') as HTMLInputElement, new File(['x'], 'widget.js', { type: 'text/javascript' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not upload the JS file: The file is too large');
  });

  it('shows the script as text, never as a script', async () => {
    const user = userEvent.setup();
    const svc = services();
    renderSetting({ scriptsEnabled: true }, svc, 'https://larder.test/files/p/x/a/abc.js');
    await user.click(await screen.findByRole('button', { name: 'View JS File' }));
    const dialog = await screen.findByRole('dialog', { name: 'JS file of Body' });
    expect(await within(dialog).findByText('console.log("hello");')).toBeInTheDocument();
    expect(svc.readText).toHaveBeenCalledWith('https://larder.test/files/p/x/a/abc.js');
    expect(document.querySelectorAll('script')).toHaveLength(0);
  });
});

describe('the list cell of a rich text', () => {
  it('shows the plain text, blocks apart, and never the markup', () => {
    render(<RichTextDisplay field={richText()} value={'<h1>Title</h1><ul><li><p>one</p></li><li><p>two</p></li></ul><table><tbody><tr><td><p>a</p></td><td><p>b</p></td></tr></tbody></table><img src=x onerror="window.__bad=1">'} />);
    expect(document.querySelector('.cell-text')).toHaveTextContent(/^Title one two a b$/);
    expect(document.querySelector('img')).toBeNull();
    expect((window as unknown as { __bad?: number }).__bad).toBeUndefined();
  });
});

describe('Project Settings → Rich text editor', () => {
  function renderSection(isAdmin: boolean, canUpdate = true) {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const project = projectWith({ menuBar: true });
    const updateProject = vi.fn(async (_org: string, _proj: string, body: { settings?: { richText?: Partial<RichTextSettings> } }) => projectWith({ menuBar: true, ...body.settings?.richText }));
    render(
      <QueryClientProvider client={queryClient}>
        <PlatformApiProvider value={{ updateProject } as unknown as PlatformApi}>
          <RichTextSettingsSection project={project} canUpdate={canUpdate} isAdmin={isAdmin} />
        </PlatformApiProvider>
      </QueryClientProvider>,
    );
    return updateProject;
  }

  it('turns one switch at a time; members who may update change the toolbar switches', async () => {
    const user = userEvent.setup();
    const updateProject = renderSection(false);
    const region = screen.getByRole('region', { name: 'Rich text editor' });
    expect(within(region).getByRole('switch', { name: 'Menu bar' })).toBeChecked();
    await user.click(within(region).getByRole('switch', { name: 'Right-to-left buttons' }));
    await waitFor(() => expect(updateProject).toHaveBeenCalledWith(ORG, PROJECT, { settings: { richText: { rightToLeft: true } } }));
    // Scripts are the organization admins' switch.
    const scripts = within(region).getByRole('switch', { name: 'Custom JS files' });
    expect(scripts).toBeDisabled();
    expect(scripts).toHaveAccessibleDescription(/Only organization admins can change this\./);
  });

  it('lets admins turn scripts on, and readers change nothing', async () => {
    const user = userEvent.setup();
    const updateProject = renderSection(true);
    await user.click(screen.getByRole('switch', { name: 'Custom JS files' }));
    await waitFor(() => expect(updateProject).toHaveBeenCalledWith(ORG, PROJECT, { settings: { richText: { scriptsEnabled: true } } }));
    cleanup();
    renderSection(false, false);
    for (const name of ['Right-to-left buttons', 'Menu bar', 'Custom quote formats', 'Custom JS files']) expect(screen.getByRole('switch', { name })).toBeDisabled();
  });
});
