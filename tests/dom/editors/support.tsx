/**
 * Renders one field through the item form's frame (label, editor) over a fake content API, keeping
 * the value as the page would: what the editor emits comes back as its value.
 */
import { useState } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { vi } from 'vitest';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import { ContentApiProvider } from '../../../src/api/content-queries.ts';
import type { ContentApi } from '../../../src/api/content.ts';
import { EditorEnvironmentProvider, type EditorEnvironment } from '../../../renderers/fields/editor-environment.ts';
import { FieldEditor } from '../../../renderers/fields/FieldEditor.tsx';
import { strictContentApi } from '../support/fake-content-api.ts';

// radix measures parts with ResizeObserver and moves pointer capture and scroll, which jsdom lacks.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.scrollIntoView ??= () => {};

export const ORG = 'a1b2c3d4e5f6a1b2c3d4e5f6';
export const PROJECT = 'f6e5d4c3b2a1f6e5d4c3b2a1';
export const scope = { organizationID: ORG, projectID: PROJECT };

export interface EditorRenderOptions {
  value?: unknown;
  api?: ReturnType<typeof strictContentApi>;
  environment?: EditorEnvironment;
  error?: string;
}

export function renderEditor(field: SchemaField, { value, api = strictContentApi(), environment = { scope }, error }: EditorRenderOptions = {}) {
  const onChange = vi.fn();
  const onProblem = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  function Form() {
    const [current, setCurrent] = useState<unknown>(value);
    return (
      <FieldEditor
        field={field}
        value={current}
        error={error}
        onProblem={onProblem}
        onChange={(next) => {
          onChange(next);
          setCurrent(next);
        }}
      />
    );
  }
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ContentApiProvider value={api as unknown as ContentApi}>
        <EditorEnvironmentProvider value={environment}>
          <Form />
        </EditorEnvironmentProvider>
      </ContentApiProvider>
    </QueryClientProvider>,
  );
  /** The value the editor emitted last (undefined when it emitted none). */
  const lastValue = () => onChange.mock.calls.at(-1)?.[0];
  /** The problem the editor reported last. */
  const lastProblem = () => onProblem.mock.calls.at(-1)?.[0];
  return { ...view, onChange, onProblem, lastValue, lastProblem, api, queryClient };
}

export const field = (type: number, overrides: Partial<SchemaField> = {}): SchemaField => ({ id: `f${type}`, name: 'Value', slug: 'value', type, ...overrides });
