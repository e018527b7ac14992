/**
 * The rich-text editor's toolbar (role toolbar, one tab stop: arrows, Home and End move between
 * its buttons) and, with the project's menu bar switch, a menu bar above it (radix Menubar).
 * Toggles say whether they are on with aria-pressed; buttons that do not apply where the cursor
 * is (table rows outside a table) are disabled. Which buttons show follows the project's switches.
 */
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  BetweenHorizontalEnd,
  BetweenVerticalEnd,
  Columns2,
  Heading1,
  Heading2,
  Heading3,
  Image as ImageIcon,
  Italic,
  Link as LinkIcon,
  List,
  ListOrdered,
  PilcrowLeft,
  PilcrowRight,
  Quote,
  Redo2,
  Rows2,
  Table as TableIcon,
  Trash,
  Undo2,
} from 'lucide-react';
import { Menubar } from 'radix-ui';
import { useEditorState, type Editor } from '@tiptap/react';
import { quoteFormats, type QuoteFormat, type RichTextSettings } from '../../../definitions/rich-text.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { useFormat } from '../../messages/use-format.ts';
import { directedNodes } from './extensions.ts';

export interface ToolbarProps {
  editor: Editor;
  settings: RichTextSettings;
  disabled: boolean;
  /** The field's name, so the toolbar is named for it. */
  label: string;
  onLink(): void;
  onImage(): void;
}

interface ToolState {
  bold: boolean;
  italic: boolean;
  heading: number | null;
  bulletList: boolean;
  orderedList: boolean;
  blockquote: boolean;
  quoteFormat: string | null;
  link: boolean;
  inTable: boolean;
  dir: string | null;
  canUndo: boolean;
  canRedo: boolean;
}

function readState(editor: Editor): ToolState {
  const heading = [1, 2, 3, 4].find((level) => editor.isActive('heading', { level })) ?? null;
  const { $from } = editor.state.selection;
  let dir: string | null = null;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if ((directedNodes as readonly string[]).includes(node.type.name) && node.attrs.dir) {
      dir = node.attrs.dir as string;
      break;
    }
  }
  return {
    bold: editor.isActive('bold'),
    italic: editor.isActive('italic'),
    heading,
    bulletList: editor.isActive('bulletList'),
    orderedList: editor.isActive('orderedList'),
    blockquote: editor.isActive('blockquote'),
    quoteFormat: (editor.getAttributes('blockquote').quoteFormat as string | null | undefined) ?? null,
    link: editor.isActive('link'),
    inTable: editor.isActive('table'),
    dir,
    canUndo: editor.can().undo(),
    canRedo: editor.can().redo(),
  };
}

/** Sets (or clears) the direction of every block around the selection. */
export function setDirection(editor: Editor, dir: 'rtl' | 'ltr' | null) {
  let chain = editor.chain().focus();
  for (const name of ['paragraph', 'heading', 'listItem', 'blockquote', 'tableCell', 'tableHeader']) chain = chain.updateAttributes(name, { dir });
  chain.run();
}

/** Quotes the selection with a format (null: a plain quote); the same format again removes the quote. */
export function setQuote(editor: Editor, format: QuoteFormat | null, current: { blockquote: boolean; quoteFormat: string | null }) {
  if (current.blockquote && current.quoteFormat === format) {
    editor.chain().focus().lift('blockquote').run();
    return;
  }
  const chain = editor.chain().focus();
  if (!current.blockquote) chain.setBlockquote();
  chain.updateAttributes('blockquote', { quoteFormat: format }).run();
}

export function Toolbar({ editor, settings, disabled, label, onLink, onImage }: ToolbarProps) {
  const format = useFormat();
  const state = useEditorState({ editor, selector: ({ editor: current }) => readState(current!) }) ?? readState(editor);
  const bar = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState('h1');
  const run = (command: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () => command(editor.chain().focus()).run();

  // Roving focus: one tab stop; arrows move between the enabled buttons.
  const buttons = () => Array.from(bar.current?.querySelectorAll<HTMLButtonElement>('button[data-tool]:not([disabled])') ?? []);
  const onKeyDown = (event: KeyboardEvent) => {
    const list = buttons();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    let next = at;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = (at + 1) % list.length;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = (at - 1 + list.length) % list.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = list.length - 1;
    else return;
    event.preventDefault();
    list[next]!.focus();
  };

  interface Tool {
    key: string;
    title: string;
    icon: ReactNode;
    onClick: () => void;
    pressed?: boolean | undefined;
    enabled: boolean;
  }
  const groupsOf: { key: string; name: string; tools: Tool[] }[] = [];
  const tool = (key: string, title: string, icon: ReactNode, onClick: () => void, options: { pressed?: boolean; enabled?: boolean } = {}): Tool => ({
    key,
    title,
    icon,
    onClick,
    pressed: options.pressed,
    enabled: !disabled && options.enabled !== false,
  });
  const group = (key: string, name: string, tools: Tool[]) => groupsOf.push({ key, name, tools });
  const icon = { size: 16, 'aria-hidden': true } as const;

  group('headings', format('richText.group.headings'), [
    tool('h1', format('richText.heading', { level: 1 }), <Heading1 {...icon} />, run((c) => c.toggleHeading({ level: 1 })), { pressed: state.heading === 1 }),
    tool('h2', format('richText.heading', { level: 2 }), <Heading2 {...icon} />, run((c) => c.toggleHeading({ level: 2 })), { pressed: state.heading === 2 }),
    tool('h3', format('richText.heading', { level: 3 }), <Heading3 {...icon} />, run((c) => c.toggleHeading({ level: 3 })), { pressed: state.heading === 3 }),
  ]);
  group('marks', format('richText.group.marks'), [
    tool('bold', format('richText.bold'), <span className="rich-text-glyph" aria-hidden="true">B</span>, run((c) => c.toggleBold()), { pressed: state.bold }),
    tool('italic', format('richText.italic'), <Italic {...icon} />, run((c) => c.toggleItalic()), { pressed: state.italic }),
  ]);
  group('blocks', format('richText.group.blocks'), [
    tool('bullets', format('richText.bulletList'), <List {...icon} />, run((c) => c.toggleBulletList()), { pressed: state.bulletList }),
    tool('numbers', format('richText.orderedList'), <ListOrdered {...icon} />, run((c) => c.toggleOrderedList()), { pressed: state.orderedList }),
    tool('quote', format('richText.quote'), <Quote {...icon} />, () => setQuote(editor, null, state), { pressed: state.blockquote && state.quoteFormat === null }),
    ...(settings.customQuoteFormats
      ? quoteFormats.map((quote) =>
          tool(`quote-${quote}`, format(`richText.quoteFormat.${quote}`), <span className="rich-text-glyph" aria-hidden="true">{format(`richText.quoteFormat.${quote}.short`)}</span>, () => setQuote(editor, quote, state), {
            pressed: state.blockquote && state.quoteFormat === quote,
          }),
        )
      : []),
  ]);
  group('insert', format('richText.group.insert'), [
    tool('link', format('richText.link'), <LinkIcon {...icon} />, onLink, { pressed: state.link }),
    tool('image', format('richText.image'), <ImageIcon {...icon} />, onImage),
    tool('table', format('richText.table.insert'), <TableIcon {...icon} />, run((c) => c.insertTable({ rows: 2, cols: 2, withHeaderRow: false })), { enabled: !state.inTable }),
  ]);
  group('table', format('richText.group.table'), [
    tool('row-add', format('richText.table.addRow'), <BetweenHorizontalEnd {...icon} />, run((c) => c.addRowAfter()), { enabled: state.inTable }),
    tool('row-delete', format('richText.table.deleteRow'), <Rows2 {...icon} />, run((c) => c.deleteRow()), { enabled: state.inTable }),
    tool('column-add', format('richText.table.addColumn'), <BetweenVerticalEnd {...icon} />, run((c) => c.addColumnAfter()), { enabled: state.inTable }),
    tool('column-delete', format('richText.table.deleteColumn'), <Columns2 {...icon} />, run((c) => c.deleteColumn()), { enabled: state.inTable }),
    tool('table-delete', format('richText.table.delete'), <Trash {...icon} />, run((c) => c.deleteTable()), { enabled: state.inTable }),
  ]);
  if (settings.rightToLeft) {
    group('direction', format('richText.group.direction'), [
      tool('rtl', format('richText.rightToLeft'), <PilcrowLeft {...icon} />, () => setDirection(editor, state.dir === 'rtl' ? null : 'rtl'), { pressed: state.dir === 'rtl' }),
      tool('ltr', format('richText.leftToRight'), <PilcrowRight {...icon} />, () => setDirection(editor, state.dir === 'ltr' ? null : 'ltr'), { pressed: state.dir === 'ltr' }),
    ]);
  }
  if (!settings.menuBar) {
    group('history', format('richText.group.history'), [
      tool('undo', format('richText.undo'), <Undo2 {...icon} />, run((c) => c.undo()), { enabled: state.canUndo }),
      tool('redo', format('richText.redo'), <Redo2 {...icon} />, run((c) => c.redo()), { enabled: state.canRedo }),
    ]);
  }

  // The one tab stop: the tool last focused while it is enabled, else the first enabled one.
  const all = groupsOf.flatMap((g) => g.tools);
  const stop = all.find((t) => t.key === current && t.enabled)?.key ?? all.find((t) => t.enabled)?.key;

  return (
    <>
      {settings.menuBar ? <MenuBar editor={editor} state={state} disabled={disabled} label={label} onLink={onLink} onImage={onImage} /> : null}
      <div ref={bar} role="toolbar" aria-label={format('richText.toolbar', { name: label })} className="rich-text-toolbar" onKeyDown={onKeyDown}>
        {groupsOf.map((g) => (
          <div key={g.key} role="group" aria-label={g.name} className="rich-text-tool-group">
            {g.tools.map((t) => (
              <button
                key={t.key}
                type="button"
                className="rich-text-tool"
                data-tool={t.key}
                aria-label={t.title}
                title={t.title}
                aria-pressed={t.pressed}
                disabled={!t.enabled}
                tabIndex={t.key === stop ? 0 : -1}
                onFocus={() => setCurrent(t.key)}
                // Keep the editor's selection: the button acts on it.
                onMouseDown={(event) => event.preventDefault()}
                onClick={t.onClick}
              >
                {t.icon}
              </button>
            ))}
          </div>
        ))}
      </div>
    </>
  );
}

function MenuBar({ editor, state, disabled, label, onLink, onImage }: { editor: Editor; state: ToolState; disabled: boolean; label: string; onLink(): void; onImage(): void }) {
  const format = useFormat();
  const act = (command: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () => command(editor.chain().focus()).run();
  const item = (key: MessageKey, onSelect: () => void, enabled = true) => (
    <Menubar.Item key={key} className="menu-item" disabled={!enabled} onSelect={onSelect}>
      {format(key)}
    </Menubar.Item>
  );
  const menu = (key: MessageKey, items: ReactNode[]) => (
    <Menubar.Menu key={key}>
      <Menubar.Trigger className="rich-text-menu-trigger" disabled={disabled}>
        {format(key)}
      </Menubar.Trigger>
      <Menubar.Portal>
        <Menubar.Content className="menu" align="start" sideOffset={4}>
          {items}
        </Menubar.Content>
      </Menubar.Portal>
    </Menubar.Menu>
  );
  return (
    <Menubar.Root className="rich-text-menubar" aria-label={format('richText.menuBar', { name: label })}>
      {menu('richText.menu.edit', [item('richText.undo', act((c) => c.undo()), state.canUndo), item('richText.redo', act((c) => c.redo()), state.canRedo)])}
      {menu('richText.menu.insert', [
        item('richText.link', () => onLink()),
        item('richText.image', () => onImage()),
        item('richText.table.insert', act((c) => c.insertTable({ rows: 2, cols: 2, withHeaderRow: false })), !state.inTable),
        item('richText.horizontalRule', act((c) => c.setHorizontalRule())),
        item('richText.codeBlock', act((c) => c.toggleCodeBlock())),
      ])}
      {menu('richText.menu.format', [
        item('richText.bold', act((c) => c.toggleBold())),
        item('richText.italic', act((c) => c.toggleItalic())),
        item('richText.strike', act((c) => c.toggleStrike())),
        item('richText.code', act((c) => c.toggleCode())),
        item('richText.clearFormatting', act((c) => c.unsetAllMarks().clearNodes())),
      ])}
    </Menubar.Root>
  );
}

