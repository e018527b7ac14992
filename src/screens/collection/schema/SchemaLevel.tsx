/**
 * One schema level: its fields in order, dragged into a new order with a pointer or the keyboard
 * (dnd-kit, announced to screen readers), new-field drafts from the picker, and for each nested
 * collection field the same builder one level down. A drop saves the order at once; a refusal
 * says "Could not update schema order" and puts the fields back.
 */
import { useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical } from 'lucide-react';
import { contentLimits } from '../../../../definitions/content.ts';
import { fieldType } from '../../../../definitions/field-types/index.ts';
import type { SchemaField } from '../../../../definitions/field-types/types.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import type { Collection, ProjectScope } from '../../../api/content.ts';
import { useReorderSchema, useSchema } from '../../../api/content-queries.ts';
import { FieldCard, type FieldCardProps, type SchemaActions } from './FieldCard.tsx';
import { FieldTypePicker } from './FieldTypePicker.tsx';
import type { SchemaLevelPlace } from './use-field-actors.ts';

export interface SchemaLevelProps {
  scope: ProjectScope;
  place: SchemaLevelPlace;
  /** 0 at the top. */
  depth: number;
  /** Names the list of fields ("Fields of Posts"). */
  label: string;
  /** A heading drawn above a nested level. */
  title?: string;
  /** What is shown until the level's own schema call answers. */
  initialFields: readonly SchemaField[];
  actions: SchemaActions;
  collections: readonly Collection[] | undefined;
}

interface Draft {
  key: number;
  type: number;
}

/** Not creatable (the metadata entry): new fields go before it, as the server puts them. */
const isSystemField = (field: SchemaField) => !(fieldType(field.type)?.capabilities.creatable ?? false);

export function SchemaLevel({ scope, place, depth, label, title, initialFields, actions, collections }: SchemaLevelProps) {
  const format = useFormat();
  const titleId = useId();
  const nestedID = place.path || undefined;
  const schema = useSchema(scope, place.collectionID, nestedID ? { nestedID } : {});
  const reorder = useReorderSchema(scope, place.collectionID);

  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [focusDraft, setFocusDraft] = useState<number | null>(null);
  const nextDraft = useRef(1);
  // Saved fields the schema call has not returned yet, and deleted ones it still returns.
  const [pending, setPending] = useState<SchemaField[]>([]);
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(() => new Set());
  const [focusField, setFocusField] = useState<string | null>(null);
  // The order shown while a drop is being saved; cleared when the server answers.
  const [override, setOverride] = useState<string[] | null>(null);
  const reorderRun = useRef(0);
  const pickerRef = useRef<HTMLDivElement>(null);

  const server = schema.data ?? initialFields;
  const known = new Set(server.map((field) => field.id));
  let fields = [...server];
  const extra = pending.filter((field) => !known.has(field.id));
  if (extra.length) {
    const system = fields.findIndex(isSystemField);
    fields.splice(system === -1 ? fields.length : system, 0, ...extra);
  }
  fields = fields.filter((field) => !deleted.has(field.id));
  if (override) {
    const rank = new Map(override.map((id, i) => [id, i]));
    fields.sort((a, b) => (rank.get(a.id) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.id) ?? Number.MAX_SAFE_INTEGER));
  }
  const ids = fields.map((field) => field.id);
  const slugs = fields.map((field) => field.slug);
  const canReorder = actions.update;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const nameOf = (id: UniqueIdentifier) => fields.find((field) => field.id === id)?.name ?? String(id);
  const positionOf = (id: UniqueIdentifier | undefined) => (id === undefined ? 0 : ids.indexOf(String(id)) + 1);
  const announcements: Announcements = {
    onDragStart: ({ active }) => format('schemaBuilder.drag.start', { name: nameOf(active.id), position: positionOf(active.id), count: ids.length }),
    onDragOver: ({ active, over }) =>
      over ? format('schemaBuilder.drag.over', { name: nameOf(active.id), position: positionOf(over.id), count: ids.length }) : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? format('schemaBuilder.drag.end', { name: nameOf(active.id), position: positionOf(over.id), count: ids.length })
        : format('schemaBuilder.drag.cancel', { name: nameOf(active.id) }),
    onDragCancel: ({ active }) => format('schemaBuilder.drag.cancel', { name: nameOf(active.id) }),
  };

  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from === -1 || to === -1) return;
    const order = arrayMove(ids, from, to);
    const run = ++reorderRun.current;
    setOverride(order);
    try {
      await reorder.mutateAsync({ order, ...(nestedID ? { nestedID } : {}) });
    } catch {
      void notify({ kind: 'error', title: format('schema.orderFailed') });
    } finally {
      // A later drop owns the override; this answer only clears its own.
      if (run === reorderRun.current) setOverride(null);
    }
  };

  const cardProps = (field: SchemaField): FieldCardProps => ({
    scope,
    place,
    depth,
    field,
    siblingSlugs: slugs.filter((slug) => slug !== field.slug),
    collections,
    actions,
    focusOnMount: focusField === field.id,
    renderNested: (parent) =>
      depth + 1 <= contentLimits.nestingDepth ? (
        <SchemaLevel
          scope={scope}
          place={{ collectionID: place.collectionID, path: place.path ? `${place.path}.${parent.slug}` : parent.slug, parentFieldId: parent.id }}
          depth={depth + 1}
          label={format('schemaBuilder.fields', { name: parent.name })}
          title={format('schemaBuilder.nestedTitle', { name: parent.name })}
          initialFields={parent.nestedCollectionSchema ?? []}
          actions={actions}
          collections={collections}
        />
      ) : null,
    onDeleted: (fieldId) => {
      setDeleted((before) => new Set(before).add(fieldId));
      // The field is gone: the picker is the next thing to do here.
      pickerRef.current?.querySelector<HTMLElement>('button')?.focus();
    },
  });


  const Heading = `h${Math.min(3 + depth, 6)}` as 'h3';
  const creatable = fields.filter((field) => !isSystemField(field)).length;
  return (
    <div className={depth ? 'schema-level schema-level-nested' : 'schema-level'}>
      {title ? (
        <Heading className="schema-level-title" id={titleId}>
          {title}
        </Heading>
      ) : null}
      {schema.isError && !schema.data ? (
        <p className="callout-error" role="alert">
          {format('schemaBuilder.loadFailed')}
        </p>
      ) : null}
      {creatable === 0 && drafts.length === 0 ? <p className="muted">{format('schemaBuilder.empty')}</p> : null}
      {/* Always the same tree, sortable or not: permissions arriving must not remount the cards. */}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        accessibility={{ announcements, screenReaderInstructions: { draggable: format('schemaBuilder.drag.instructions') } }}
        onDragEnd={(event) => void onDragEnd(event)}
      >
        <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={!canReorder}>
          <ol className="schema-fields" aria-label={label}>
            {fields.map((field) => (
              <SortableField key={field.id} id={field.id} name={field.name} sortable={canReorder}>
                {(handle) => <FieldCard {...cardProps(field)} handle={handle} />}
              </SortableField>
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      {drafts.length ? (
        <div className="schema-drafts">
          {drafts.map((draft) => (
            <FieldCard
              key={draft.key}
              scope={scope}
              place={place}
              depth={depth}
              type={draft.type}
              siblingSlugs={slugs}
              collections={collections}
              actions={actions}
              focusOnMount={focusDraft === draft.key}
              onDiscarded={() => {
                setDrafts((before) => before.filter((d) => d.key !== draft.key));
                pickerRef.current?.querySelector<HTMLElement>('button')?.focus();
              }}
              onSaved={(field) => {
                setPending((before) => [...before, field]);
                setFocusField(field.id);
                setDrafts((before) => before.filter((d) => d.key !== draft.key));
              }}
            />
          ))}
        </div>
      ) : null}
      {actions.create && fields.length < contentLimits.fieldsPerSchema ? (
        <div className="schema-level-actions" ref={pickerRef}>
          <FieldTypePicker
            {...(title ? { describedBy: titleId } : {})}
            onPick={(type) => {
              const key = nextDraft.current++;
              setDrafts((before) => [...before, { key, type }]);
              setFocusDraft(key);
            }}
          />
        </div>
      ) : null}
    </div>
  );
}

/** A field of a sortable list: the row moves with the drag, only the handle starts one. */
function SortableField({ id, name, sortable, children }: { id: string; name: string; sortable: boolean; children: (handle: ReactNode) => ReactNode }) {
  const format = useFormat();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled: !sortable });
  const style: CSSProperties = { transform: CSS.Translate.toString(transform), transition };
  const handle = sortable ? (
    <button
      type="button"
      ref={setActivatorNodeRef}
      className="icon-button drag-handle"
      data-drag-handle=""
      {...attributes}
      {...listeners}
      aria-label={format('schemaBuilder.move', { name })}
    >
      <GripVertical aria-hidden="true" size={18} />
    </button>
  ) : null;
  return (
    <li ref={setNodeRef} style={style} className={isDragging ? 'schema-field schema-field-dragging' : 'schema-field'} data-field-id={id}>
      {children(handle)}
    </li>
  );
}
