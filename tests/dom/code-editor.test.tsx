/**
 * The function screen's CodeMirror editor (src/screens/functions/CodeEditor.tsx) in jsdom: named by
 * its label, compile errors drawn as lint diagnostics at their line and column, typing reported,
 * read-only when asked, and Tab: it indents, but after Escape it is left to the browser, so focus can
 * leave the editor (CodeMirror's tab-focus mode; docs/functions.md "The console").
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { forEachDiagnostic } from '@codemirror/lint';
import CodeEditor from '../../src/screens/functions/CodeEditor.tsx';

afterEach(cleanup);

// jsdom lays nothing out: CodeMirror measures text ranges (selection, cursor), which jsdom's Range lacks.
const emptyRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getClientRects ??= emptyRects;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

const source = 'export default async function (event) {\n  let x = oops oops;\n  return x;\n}\n';

function draw(props: Partial<Parameters<typeof CodeEditor>[0]> = {}) {
  const onChange = vi.fn();
  const view = render(
    <>
      <span id="label">Source (JavaScript)</span>
      <CodeEditor value={source} onChange={onChange} language="js" labelledBy="label" {...props} />
    </>,
  );
  const content = view.container.querySelector<HTMLElement>('.cm-content')!;
  return { ...view, onChange, content, editor: EditorView.findFromDOM(content)! };
}

describe('CodeEditor', () => {
  it('is a labelled text box holding the source', () => {
    const { content, editor } = draw();
    expect(content).toHaveAttribute('role', 'textbox');
    expect(content).toHaveAccessibleName('Source (JavaScript)');
    expect(content).toHaveAttribute('contenteditable', 'true');
    expect(editor.state.doc.toString()).toBe(source);
  });

  it('puts each compile error at its line and column', async () => {
    const { editor } = draw({ errors: [{ line: 2, column: 16, message: 'Expected ";" but found "oops"' }] });
    const found: { from: number; message: string }[] = [];
    await waitFor(() => {
      found.length = 0;
      forEachDiagnostic(editor.state, (diagnostic, from) => found.push({ from, message: diagnostic.message }));
      expect(found).toHaveLength(1);
    });
    const line = editor.state.doc.line(2);
    expect(found[0]).toEqual({ from: line.from + 15, message: 'Expected ";" but found "oops"' });
    expect(editor.state.sliceDoc(found[0]!.from, found[0]!.from + 4)).toBe('oops');
  });

  it('reports typing, and takes a new text from outside', () => {
    const { editor, onChange, rerender } = draw();
    editor.dispatch({ changes: { from: 0, insert: '// hi\n' } });
    expect(onChange).toHaveBeenLastCalledWith(`// hi\n${source}`);
    rerender(
      <>
        <span id="label">Source (JavaScript)</span>
        <CodeEditor value="export default () => 2;" onChange={onChange} language="js" labelledBy="label" />
      </>,
    );
    expect(editor.state.doc.toString()).toBe('export default () => 2;');
  });

  it('is read-only when asked', () => {
    const { content, editor } = draw({ readOnly: true });
    expect(content).toHaveAttribute('contenteditable', 'false');
    expect(content).toHaveAttribute('aria-readonly', 'true');
    expect(editor.state.readOnly).toBe(true);
  });

  it('indents with Tab, but lets Tab move the focus after Escape', () => {
    const { content } = draw();
    content.focus();
    // handled (indented): the browser's own Tab is prevented
    expect(fireEvent.keyDown(content, { key: 'Tab', code: 'Tab', keyCode: 9 })).toBe(false);
    fireEvent.keyDown(content, { key: 'Escape', code: 'Escape', keyCode: 27 });
    // not handled: the browser moves the focus on
    expect(fireEvent.keyDown(content, { key: 'Tab', code: 'Tab', keyCode: 9 })).toBe(true);
  });
});
