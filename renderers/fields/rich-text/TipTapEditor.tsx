/**
 * The RichText editor (TipTap; loaded in a chunk of its own by Editor.tsx): a toolbar (and, with
 * the project's switch, a menu bar), the text area (600 px tall, the text scrolling within 550;
 * table cells at most 450 px wide), a link dialog (Mod-K; add, change, remove) and an
 * image dialog (an address, or a file stored as a project asset). The field's custom CSS is
 * scoped to this editor (scope-css.ts). The value is the editor's HTML; an empty text is null.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { fileLimits } from '../../../definitions/files.ts';
import { isSafeImage, isSafeLink } from '../../../definitions/rich-text.ts';
import { ModalDialog } from '../../dialogs/ModalDialog.tsx';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf } from '../editor-support.ts';
import { useEditorEnvironment } from '../editor-environment.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';
import { richTextExtensions } from './extensions.ts';
import { useRichTextServices, useRichTextSettings } from './rich-text-services.ts';
import { scopeCss } from './scope-css.ts';
import { Toolbar } from './Toolbar.tsx';
import './rich-text.css';

/** An address as typed, with https:// put before a bare host name. */
export function linkAddress(typed: string): string {
  const text = typed.trim();
  if (text === '') return '';
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return text;
  if (/^[^\s@/]+@[^\s@/]+\.[^\s@/]+$/.test(text)) return `mailto:${text}`;
  return `https://${text.replace(/^\/\//, '')}`;
}

const htmlOf = (editor: Editor): string | null => (editor.isEmpty ? null : editor.getHTML());

export function TipTapEditor({ field, value, onChange, onBlur, error, disabled, required, id, labelledBy, describedBy }: EditorProps) {
  const environment = useEditorEnvironment();
  const settings = useRichTextSettings(environment.scope);
  const scopeId = `rt${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const text = typeof value === 'string' ? value : '';
  const emitted = useRef<string | null>(text || null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [imageOpen, setImageOpen] = useState(false);
  const openLink = useRef(() => setLinkOpen(true));

  // One set of extensions for the editor's life (a new list would be new options on every render).
  const extensions = useMemo(() => richTextExtensions(), []);
  // aria-invalid and the described-by list follow the messages (the view takes new attributes on each render).
  const describedIds = describedByOf(describedBy, error && messagesId(id));
  const editor = useEditor({
    extensions,
    content: text,
    editable: !disabled,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        ...(labelledBy ? { 'aria-labelledby': labelledBy } : {}),
        ...(required ? { 'aria-required': 'true' } : {}),
        ...(describedIds ? { 'aria-describedby': describedIds } : {}),
        ...(error ? { 'aria-invalid': 'true' } : {}),
        class: 'rich-text-content',
      },
      handleKeyDown: (_view, event) => {
        // Mod-K: the link dialog, as in most editors.
        if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
          event.preventDefault();
          openLink.current();
          return true;
        }
        return false;
      },
    },
    onUpdate: ({ editor: current }) => {
      const html = htmlOf(current);
      emitted.current = html;
      onChange(html);
    },
    onBlur: () => onBlur?.(),
  });

  // A value from outside (a reset after saving, a duplicate, a conflict resolved) replaces the text.
  useEffect(() => {
    const incoming = text || null;
    if (incoming === emitted.current) return;
    emitted.current = incoming;
    editor.commands.setContent(incoming ?? '', { emitUpdate: false });
  }, [editor, text]);

  useEffect(() => {
    editor.setEditable(!disabled, false);
  }, [editor, disabled]);

  const scopedCss = useMemo(() => scopeCss(field.richTextCustomCSS ?? '', `[data-rich-text-scope="${scopeId}"]`), [field.richTextCustomCSS, scopeId]);

  return (
    <div className="rich-text-editor" data-disabled={disabled || undefined}>
      <Toolbar editor={editor} settings={settings} disabled={Boolean(disabled)} label={field.name} onLink={() => setLinkOpen(true)} onImage={() => setImageOpen(true)} />
      {scopedCss ? <style>{scopedCss}</style> : null}
      <div className="rich-text-frame" data-rich-text-scope={scopeId}>
        <EditorContent editor={editor} />
      </div>
      <EditorMessages id={messagesId(id)} messages={[error]} />
      <LinkDialog editor={editor} open={linkOpen} onClose={() => setLinkOpen(false)} />
      <ImageDialog editor={editor} open={imageOpen} onClose={() => setImageOpen(false)} />
    </div>
  );
}

function LinkDialog({ editor, open, onClose }: { editor: Editor; open: boolean; onClose(): void }) {
  const format = useFormat();
  const id = useId();
  const [address, setAddress] = useState('');
  const [problem, setProblem] = useState('');
  const hasLink = open && editor.isActive('link');
  useEffect(() => {
    if (!open) return;
    setAddress((editor.getAttributes('link').href as string | undefined) ?? '');
    setProblem('');
  }, [open, editor]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const href = linkAddress(address);
    if (!isSafeLink(href)) {
      setProblem(format('richText.linkDialog.invalid'));
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
    } else {
      chain.setLink({ href }).run();
      // The caret goes after the link, as in any word processor: the linked words are no longer
      // selected, so typing on (or a key pressed before focus is back from the dialog) cannot replace them.
      editor.commands.setTextSelection(editor.state.selection.to);
    }
    onClose();
  };
  const remove = () => {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    onClose();
  };

  return (
    <ModalDialog open={open} onOpenChange={(next) => (next ? undefined : onClose())} title={format(hasLink ? 'richText.linkDialog.editTitle' : 'richText.linkDialog.title')} name="richTextLink" widthPx={460}>
      {({ titleId }) => (
        <form className="form" aria-labelledby={titleId} noValidate onSubmit={submit}>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-href`}>
              {format('richText.linkDialog.address')}
            </label>
            <input
              id={`${id}-href`}
              className="input"
              type="text"
              inputMode="url"
              autoComplete="off"
              maxLength={2048}
              value={address}
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${id}-help ${id}-error`}
              onChange={(event) => {
                setAddress(event.target.value);
                setProblem('');
              }}
            />
            <p id={`${id}-help`} className="field-help">
              {format('richText.linkDialog.help')}
            </p>
            <p id={`${id}-error`} className="field-error" aria-live="polite">
              {problem}
            </p>
          </div>
          <div className="dialog-actions">
            {hasLink ? (
              <button type="button" className="button" onClick={remove}>
                {format('richText.linkDialog.remove')}
              </button>
            ) : null}
            <button type="button" className="button" onClick={onClose}>
              {format('form.cancel')}
            </button>
            <button type="submit" className="button button-primary">
              {format('richText.linkDialog.apply')}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}

function ImageDialog({ editor, open, onClose }: { editor: Editor; open: boolean; onClose(): void }) {
  const format = useFormat();
  const id = useId();
  const { scope } = useEditorEnvironment();
  const services = useRichTextServices();
  const [address, setAddress] = useState('');
  const [alt, setAlt] = useState('');
  const [problem, setProblem] = useState('');
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!open) return;
    setAddress('');
    setAlt('');
    setProblem('');
    setUploading(false);
  }, [open]);

  const insert = (src: string) => {
    editor.chain().focus().setImage({ src, alt: alt.trim() }).run();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const src = address.trim();
    if (!isSafeImage(src)) {
      setProblem(format('richText.imageDialog.invalid'));
      return;
    }
    insert(src);
  };
  const upload = async (file: File | undefined) => {
    if (!file || !scope) return;
    if (file.size > fileLimits.uploadBytesMax) {
      setProblem(format('richText.upload.tooLarge'));
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setUploading(true);
    setProblem('');
    try {
      const stored = await services.uploadAsset(scope, file);
      insert(stored.url);
    } catch (error) {
      setProblem(format('richText.imageDialog.uploadFailed', { reason: error instanceof Error ? error.message : String(error) }));
      setUploading(false);
    }
  };

  return (
    <ModalDialog open={open} onOpenChange={(next) => (next ? undefined : onClose())} title={format('richText.imageDialog.title')} name="richTextImage" widthPx={480}>
      {({ titleId }) => (
        <form className="form" aria-labelledby={titleId} noValidate onSubmit={submit}>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-alt`}>
              {format('richText.imageDialog.alt')}
            </label>
            <input id={`${id}-alt`} className="input" type="text" maxLength={500} value={alt} onChange={(event) => setAlt(event.target.value)} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-src`}>
              {format('richText.imageDialog.address')}
            </label>
            <input
              id={`${id}-src`}
              className="input"
              type="text"
              inputMode="url"
              autoComplete="off"
              maxLength={2048}
              value={address}
              aria-describedby={`${id}-error`}
              aria-invalid={problem ? true : undefined}
              onChange={(event) => {
                setAddress(event.target.value);
                setProblem('');
              }}
            />
          </div>
          {scope ? (
            <div className="field">
              <label className="field-label" htmlFor={`${id}-file`}>
                {format('richText.imageDialog.file')}
              </label>
              <input
                ref={fileInput}
                id={`${id}-file`}
                className="input"
                type="file"
                accept="image/*"
                disabled={uploading}
                aria-describedby={`${id}-error`}
                onChange={(event) => void upload(event.target.files?.[0])}
              />
            </div>
          ) : null}
          <p id={`${id}-error`} className="field-error" aria-live="polite">
            {uploading ? format('richText.imageDialog.uploading') : problem}
          </p>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              {format('form.cancel')}
            </button>
            <button type="submit" className="button button-primary" disabled={uploading}>
              {format('richText.imageDialog.insert')}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
