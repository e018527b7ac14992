/**
 * The I/O of the field-draft machine for one schema level: a new top-level field is POSTed to
 * `field`, one inside a nested collection to `field/{nested-collection field id}?nestedSlug`; an
 * update is PUT with `nestedSlug`, a delete sent with `nestedID`.
 */
import { useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import type { SchemaField } from '../../../../definitions/field-types/types.ts';
import type { DeleteFieldInput, SaveFieldInput, UpdateFieldInput } from '../../../../machines/field-draft.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import type { ProjectScope } from '../../../api/content.ts';
import { useAddField, useAddNestedField, useDeleteField, useUpdateField } from '../../../api/content-queries.ts';

/** Where a schema level is: the top (`path` empty) or a nested collection's schema. */
export interface SchemaLevelPlace {
  collectionID: string;
  /** The nested collection slugs from the top, dot-joined; empty at the top. */
  path: string;
  /** The nested-collection field whose schema this level is (absent at the top). */
  parentFieldId?: string;
}

export function useFieldActors(scope: ProjectScope, place: SchemaLevelPlace) {
  const format = useFormat();
  const add = useAddField(scope, place.collectionID);
  const addNested = useAddNestedField(scope, place.collectionID);
  const update = useUpdateField(scope, place.collectionID);
  const remove = useDeleteField(scope, place.collectionID);
  // The machine keeps the actors it started with: they read the newest hooks through this.
  const latest = useRef({ add, addNested, update, remove, place, format });
  latest.current = { add, addNested, update, remove, place, format };

  return useMemo(
    () => ({
      saveField: fromPromise<SchemaField, SaveFieldInput>(async ({ input }) => {
        const { add, addNested, place } = latest.current;
        if (place.parentFieldId) {
          return addNested.mutateAsync({ nestedFieldId: place.parentFieldId, field: input.field, nestedSlug: input.nestedID ?? place.path });
        }
        return add.mutateAsync({ field: input.field });
      }),
      updateField: fromPromise<SchemaField, UpdateFieldInput>(async ({ input }) => {
        const { update, format } = latest.current;
        const field = await update.mutateAsync({ fieldId: input.fieldId, changes: input.changes, ...(input.nestedID ? { nestedSlug: input.nestedID } : {}) });
        void notify({ kind: 'success', title: format('field.updated') });
        return field;
      }),
      deleteField: fromPromise<unknown, DeleteFieldInput>(async ({ input }) => {
        const { remove } = latest.current;
        await remove.mutateAsync({ fieldId: input.fieldId, ...(input.nestedID ? { nestedID: input.nestedID } : {}) });
        return null;
      }),
    }),
    [],
  );
}
