/**
 * The function's code editor: CodeMirror 6 with JavaScript/TypeScript highlighting, line numbers,
 * undo history, bracket matching, and the compile errors of the last save as lint diagnostics at
 * their line and column. Its colours are the console's custom properties (functions.css), so it
 * follows the light and dark themes without being told.
 *
 * Loaded only by the function screen, through React.lazy (CodeEditorLazy.tsx): CodeMirror is
 * a chunk of its own that no other page downloads (docs/functions.md "The console").
 *
 * Keyboard: Tab indents and Shift+Tab unindents, as in any code editor; to leave the editor with
 * the keyboard press Escape and then Tab (or Shift+Tab) within two seconds, or Ctrl+M (Shift+Alt+M
 * on a Mac) to switch Tab between indenting and moving focus — CodeMirror's own tab-focus mode.
 */
import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { CompileError } from './function-helpers.ts';

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  language: 'js' | 'ts';
  /** The id of the visible label that names the editor. */
  labelledBy: string;
  /** Ids of help texts (the keyboard hint, the errors). */
  describedBy?: string | undefined;
  readOnly?: boolean;
  /** The last save's compile errors, shown at their places. */
  errors?: readonly CompileError[];
}

/** Colours by token, each a custom property that functions.css sets per theme. */
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.moduleKeyword, tags.operatorKeyword, tags.definitionKeyword, tags.modifier], color: 'var(--code-keyword)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--code-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--code-number)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--code-comment)', fontStyle: 'italic' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName), tags.definition(tags.variableName)], color: 'var(--code-function)' },
  { tag: [tags.typeName, tags.className, tags.namespace], color: 'var(--code-type)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

const theme = EditorView.theme({
  '&': { color: 'var(--text)', backgroundColor: 'var(--surface)', border: '1px solid var(--border)', borderRadius: '6px', fontSize: '0.9rem' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5', minHeight: '16rem', maxHeight: '32rem', overflow: 'auto' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--code-selection)' },
  '.cm-activeLine': { backgroundColor: 'var(--code-active-line)' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--code-active-line)', color: 'var(--text)' },
  '.cm-matchingBracket': { outline: '1px solid var(--muted)', backgroundColor: 'transparent' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border)' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--danger)' },
  '.cm-lintRange-error': { backgroundImage: 'none', textDecoration: 'underline wavy var(--danger)', textUnderlineOffset: '3px' },
});

/** A 1-based line and column as a position in the document, kept inside it. */
function positionOf(state: EditorState, line: number, column: number): number {
  const at = state.doc.line(Math.min(Math.max(1, line), state.doc.lines));
  return Math.min(at.from + Math.max(0, column - 1), at.to);
}

function diagnosticsOf(state: EditorState, errors: readonly CompileError[]): Diagnostic[] {
  return errors.map((error) => {
    const from = positionOf(state, error.line, error.column);
    const lineEnd = state.doc.lineAt(from).to;
    return { from, to: Math.max(from, Math.min(lineEnd, from + 1)), severity: 'error', message: error.message };
  });
}

export default function CodeEditor({ value, onChange, language, labelledBy, describedBy, readOnly = false, errors = [] }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const settings = useRef(new Compartment());

  const configured = () => [
    javascript({ typescript: language === 'ts' }),
    EditorState.readOnly.of(readOnly),
    EditorView.editable.of(!readOnly),
    EditorView.contentAttributes.of({ 'aria-labelledby': labelledBy, ...(describedBy ? { 'aria-describedby': describedBy } : {}), ...(readOnly ? { 'aria-readonly': 'true' } : {}) }),
  ];

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          syntaxHighlighting(highlight),
          lintGutter(),
          keymap.of([indentWithTab, ...defaultKeymap, ...historyKeymap, ...lintKeymap]),
          theme,
          settings.current.of(configured()),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; later changes of its settings and text go through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: settings.current.reconfigure(configured()) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, readOnly, labelledBy, describedBy]);

  // A text given from outside (another version opened) replaces the document; typing does not come back here.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, diagnosticsOf(editor.state, errors)));
  }, [errors]);

  return <div ref={host} className="function-code-editor" data-language={language} />;
}
