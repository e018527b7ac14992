/**
 * The kanban layout of an item list (a click prefills the new item; docs/layouts.md): an "Unset"
 * column, then one column per option of the chosen Option field. Each column reads only its own
 * cards, a page at a time ("Load more"), through the list's search, filter and nested path plus
 * the column's own term (kanban-model.ts); its count is the list total (`item-count`). Within a
 * column cards come in the list's default order, which is rank order once the collection is
 * sortable.
 *
 * Cards move between columns by dragging (dnd-kit): with the pointer anywhere on the card, or
 * with the keyboard from the card's handle (Space or Enter picks it up, Left and Right go to the
 * neighbouring column, Space or Enter drops, Escape cancels), announced to screen readers. A drop
 * saves the option with If-Match (the version the card was read with); the card moves at once and
 * both columns are read again after the answer, a refused or stale save putting it back with a
 * notice. "+ New Item" in a column opens a new item with that option set.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { GripVertical, Plus, Settings, SquareKanban } from 'lucide-react';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import { contentKeys } from '../../../src/api/content-keys.ts';
import { useContentApi } from '../../../src/api/content-queries.ts';
import { isStaleItemError, type Item, type ItemPage } from '../../../src/api/content.ts';
import { itemInList } from '../../../src/api/item-address.ts';
import { shouldRetry } from '../../../src/api/queries.ts';
import { useFormat } from '../../messages/use-format.ts';
import { notify } from '../../toasts/notify.ts';
import { fittingFields, validLayoutSettings } from '../settings.ts';
import type { LayoutProps } from '../types.ts';
import { cardTitle, columnParams, columnsOf, dropValue, kanbanPageSize, projectionOf, storedValue, titleFieldsOf, unsetColumn, type KanbanColumn } from './kanban-model.ts';
import './kanban.css';

type Pages = InfiniteData<ItemPage, number>;

export default function KanbanLayout(props: LayoutProps) {
  const format = useFormat();
  const { schema } = props.collection;
  const usable = validLayoutSettings(schema, 'kanban', props.settings);
  const field = usable.activeField ? schema.find((candidate) => candidate.slug === usable.activeField) : undefined;
  if (!field) {
    const stale = props.settings.activeField !== undefined;
    const none = fittingFields(schema, 'kanban', 'activeField').length === 0;
    return (
      <div className="panel empty-state kanban-choose">
        <SquareKanban aria-hidden="true" size={28} />
        <h3>{format('layout.kanban.chooseField')}</h3>
        <p className="muted">{format(stale ? 'layout.kanban.chooseFieldStale' : none ? 'layout.kanban.chooseFieldNone' : 'layout.kanban.chooseFieldHint')}</p>
        <button type="button" className="button button-primary" onClick={props.onOpenSettings}>
          <Settings aria-hidden="true" size={16} />
          {format('layout.kanban.openSettings')}
        </button>
      </div>
    );
  }
  // Another field starts afresh.
  return <Board key={field.slug} {...props} field={field} titleKeys={usable.titleKeys} />;
}

/**
 * Left and Right move a picked-up card to the centre of the neighbouring column (by position on
 * screen); other keys do nothing (Space, Enter and Escape are the sensor's own).
 */
const columnKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context: { active, droppableRects, droppableContainers, over, collisionRect } }) => {
  if (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft') return undefined;
  event.preventDefault();
  const columns = droppableContainers
    .getEnabled()
    .map((container) => ({ id: container.id, rect: droppableRects.get(container.id) }))
    .filter((entry): entry is { id: UniqueIdentifier; rect: NonNullable<typeof entry.rect> } => entry.rect !== undefined)
    .sort((a, b) => a.rect.left - b.rect.left);
  const currentId = over?.id ?? (active ? (active.data.current as { column?: string } | undefined)?.column : undefined);
  const index = columns.findIndex((column) => column.id === currentId);
  const next = columns[index + (event.code === 'ArrowRight' ? 1 : -1)];
  if (index === -1 || !next) return undefined;
  const width = collisionRect?.width ?? 0;
  return { x: next.rect.left + Math.max(0, (next.rect.width - width) / 2), y: next.rect.top + 48 };
};

/** The pointer's column; for the keyboard (no pointer) the column the card overlaps most. */
const collisionDetection: CollisionDetection = (args) => {
  const within = pointerWithin(args);
  return within.length ? within : rectIntersection(args);
};

interface DragData {
  item: Item;
  column: string;
}

/**
 * Whether the board hides columns to its left or right: the board draws a fading edge on that side
 * (kanban.css), so a board wider than the window shows it goes on; keyboard focus moving to a
 * hidden column scrolls it into view.
 */
function useScrollCue() {
  const board = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  const measureMore = useCallback(() => {
    const element = board.current;
    if (!element) return;
    // Right-to-left pages scroll to negative offsets: compare magnitudes.
    const scrolled = Math.abs(element.scrollLeft);
    const hidden = element.scrollWidth - element.clientWidth;
    const next = { left: scrolled > 1, right: hidden - scrolled > 1 };
    setMore((before) => (before.left === next.left && before.right === next.right ? before : next));
  }, []);
  useEffect(() => {
    const element = board.current;
    if (!element) return;
    measureMore();
    // Every browser has ResizeObserver; a DOM without it (jsdom) gets the first measure only.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measureMore);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, [measureMore]);
  return { board, more, measureMore };
}

function Board({ scope, collection, nested, baseParams, reloadKey, canCreate, canUpdate, onOpenItem, onNewItem, field, titleKeys }: LayoutProps & { field: SchemaField; titleKeys: string[] | undefined }) {
  const format = useFormat();
  const api = useContentApi();
  const queryClient = useQueryClient();
  const instructionsId = useId();
  const columns = useMemo(() => columnsOf(field), [field]);
  const { board, more, measureMore } = useScrollCue();
  const titleFields = useMemo(() => titleFieldsOf(collection.schema, titleKeys), [collection.schema, titleKeys]);
  const projectOn = projectionOf(field, titleFields);
  const [dragging, setDragging] = useState<DragData | null>(null);

  const keyOf = (column: KanbanColumn) =>
    [...contentKeys.items(scope, collection.id), 'kanban', nested?.nestedID ?? '', field.slug, column.id, baseParams, projectOn, reloadKey] as const;
  const columnName = (id: UniqueIdentifier | undefined) => {
    const column = columns.find((candidate) => candidate.id === id);
    return column?.option ? column.option.value : format('layout.kanban.unset');
  };
  const titleOf = (item: Item) => cardTitle(item, titleFields);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnKeyboardCoordinates }),
  );

  const dataOf = (data: unknown) => data as DragData | undefined;
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      const data = dataOf(active.data.current);
      return data ? format('layout.kanban.drag.start', { item: titleOf(data.item), column: columnName(data.column) }) : undefined;
    },
    onDragOver: ({ active, over }) => {
      const data = dataOf(active.data.current);
      if (!data) return undefined;
      return over ? format('layout.kanban.drag.over', { item: titleOf(data.item), column: columnName(over.id) }) : format('layout.kanban.drag.overNone', { item: titleOf(data.item) });
    },
    onDragEnd: ({ active, over }) => {
      const data = dataOf(active.data.current);
      if (!data) return undefined;
      if (!over || over.id === data.column) return format('layout.kanban.drag.back', { item: titleOf(data.item), column: columnName(data.column) });
      return format('layout.kanban.drag.end', { item: titleOf(data.item), column: columnName(over.id) });
    },
    onDragCancel: ({ active }) => {
      const data = dataOf(active.data.current);
      return data ? format('layout.kanban.drag.cancel', { item: titleOf(data.item), column: columnName(data.column) }) : undefined;
    },
  };

  /** Moves a card in the cached pages: out of one column's, to the top of another's, counts following. */
  const moveCached = (item: Item, from: KanbanColumn, to: KanbanColumn) => {
    queryClient.setQueryData<Pages>(keyOf(from), (data) =>
      data ? { ...data, pages: data.pages.map((page) => ({ items: page.items.filter((entry) => entry._id !== item._id), total: Math.max(0, page.total - 1) })) } : data,
    );
    const moved: Item = { ...item, [field.slug]: storedValue(to) };
    queryClient.setQueryData<Pages>(keyOf(to), (data) =>
      data ? { ...data, pages: data.pages.map((page, i) => ({ items: i === 0 ? [moved, ...page.items] : page.items, total: page.total + 1 })) } : data,
    );
  };

  const onDragStart = ({ active }: DragStartEvent) => setDragging(dataOf(active.data.current) ?? null);

  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    setDragging(null);
    const data = dataOf(active.data.current);
    if (!data || !over || over.id === data.column) return;
    const from = columns.find((column) => column.id === data.column);
    const to = columns.find((column) => column.id === over.id);
    if (!from || !to) return;
    await Promise.all([queryClient.cancelQueries({ queryKey: keyOf(from) }), queryClient.cancelQueries({ queryKey: keyOf(to) })]);
    moveCached(data.item, from, to);
    try {
      const values = { [field.slug]: dropValue(to) };
      const ifMatch = `"${data.item._lastUpdatedDate}"`;
      // A nested item is written through its top-level item, nestedID ending in its own id.
      await api.updateItem(scope, collection.id, itemInList(nested, data.item._id), values, { ifMatch });
    } catch (error) {
      void notify({ kind: 'error', title: format(isStaleItemError(error) ? 'layout.kanban.stale' : 'layout.kanban.moveFailed') });
    } finally {
      // Other views of the items are stale now; the two columns are read again at once.
      void queryClient.invalidateQueries({ queryKey: contentKeys.items(scope, collection.id), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: keyOf(from) });
      void queryClient.invalidateQueries({ queryKey: keyOf(to) });
    }
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      onDragStart={onDragStart}
      onDragEnd={(event) => void onDragEnd(event)}
      onDragCancel={() => setDragging(null)}
      accessibility={{ announcements, screenReaderInstructions: { draggable: format('layout.kanban.drag.instructions') } }}
    >
      <p id={instructionsId} className="visually-hidden">
        {format('layout.kanban.help', { field: field.name })}
      </p>
      <div className="kanban-scroll">
      <div
        ref={board}
        className="kanban-board"
        role="region"
        aria-label={format('layout.kanban.label', { collection: collection.name, field: field.name })}
        aria-describedby={instructionsId}
        data-more-left={more.left}
        data-more-right={more.right}
        onScroll={measureMore}
      >
        {columns.map((column) => (
          <Column
            key={column.id}
            column={column}
            name={columnName(column.id)}
            queryKey={keyOf(column)}
            load={(pageNumber, signal) =>
              api.listItems(scope, collection.id, { ...baseParams, ...columnParams(field, column), projectOn, pageNumber, perPage: kanbanPageSize }, { signal })
            }
            titleOf={titleOf}
            canCreate={canCreate}
            canUpdate={canUpdate}
            onOpenItem={onOpenItem}
            onNewItem={() => onNewItem(column.option ? { [field.slug]: storedValue(column) } : {})}
          />
        ))}
      </div>
      </div>
      <DragOverlay dropAnimation={null}>{dragging ? <div className="kanban-card kanban-card-overlay" data-overlay-of={dragging.item._id}>
            {titleOf(dragging.item)}
          </div> : null}</DragOverlay>
    </DndContext>
  );
}

interface ColumnProps {
  column: KanbanColumn;
  name: string;
  queryKey: readonly unknown[];
  load: (pageNumber: number, signal: AbortSignal) => Promise<ItemPage>;
  titleOf: (item: Item) => string;
  canCreate: boolean;
  canUpdate: boolean;
  onOpenItem: (itemID: string) => void;
  onNewItem: () => void;
}

function Column({ column, name, queryKey, load, titleOf, canCreate, canUpdate, onOpenItem, onNewItem }: ColumnProps) {
  const format = useFormat();
  const headingId = useId();
  const { setNodeRef, isOver } = useDroppable({ id: column.id });
  const pages = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => load(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.reduce((sum, page) => sum + page.items.length, 0) < last.total && last.items.length > 0 ? all.length + 1 : undefined),
    retry: shouldRetry,
  });
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];
  // Cards seen twice across pages (items moved while paging) show once.
  const shown = items.filter((item, i) => items.findIndex((other) => other._id === item._id) === i);
  const total = pages.data?.pages[0]?.total;

  return (
    <section ref={setNodeRef} className={isOver ? 'kanban-column is-over' : 'kanban-column'} aria-labelledby={headingId} data-column={column.id === unsetColumn ? 'unset' : column.option?.value}>
      <header className="kanban-column-header">
        <h3 id={headingId} className="kanban-column-title">
          {name}
        </h3>
        {total !== undefined ? <span className="muted kanban-column-count">{format('itemList.count', { count: total })}</span> : null}
      </header>
      {canCreate ? (
        <button type="button" className="button button-small button-quiet kanban-new" onClick={onNewItem} aria-label={format('layout.kanban.newItemIn', { column: name })}>
          <Plus aria-hidden="true" size={14} />
          {format('layout.kanban.newItem')}
        </button>
      ) : null}
      {pages.isPending ? (
        <p className="muted" role="status">
          {format('itemList.loading')}
        </p>
      ) : pages.isError && !pages.data ? (
        <div className="kanban-column-error" role="alert">
          <p>{format('layout.kanban.loadFailed')}</p>
          <button type="button" className="button button-small" onClick={() => void pages.refetch()}>
            {format('itemList.retry')}
          </button>
        </div>
      ) : (
        <ul className="kanban-cards" aria-labelledby={headingId}>
          {shown.map((item) => (
            <Card key={item._id} item={item} column={column.id} title={titleOf(item)} canUpdate={canUpdate} onOpen={() => onOpenItem(item._id)} />
          ))}
          {shown.length === 0 ? <li className="muted kanban-empty">{format('layout.kanban.empty')}</li> : null}
        </ul>
      )}
      {pages.hasNextPage ? (
        <button type="button" className="button button-small kanban-more" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {format(pages.isFetchingNextPage ? 'itemList.loading' : 'layout.kanban.loadMore')}
        </button>
      ) : null}
    </section>
  );
}

function Card({ item, column, title, canUpdate, onOpen }: { item: Item; column: string; title: string; canUpdate: boolean; onOpen: () => void }) {
  const format = useFormat();
  const { setNodeRef, attributes, listeners, isDragging } = useDraggable({ id: item._id, data: { item, column } satisfies DragData, disabled: !canUpdate });
  // The pointer drags the whole card (a plain click still opens it); the keyboard drags from the handle.
  const { onPointerDown, onKeyDown } = (listeners ?? {}) as { onPointerDown?: (event: unknown) => void; onKeyDown?: (event: unknown) => void };
  return (
    <li ref={setNodeRef} className={isDragging ? 'kanban-card is-dragging' : 'kanban-card'} onPointerDown={onPointerDown} data-item={item._id}>
      {canUpdate ? (
        <button type="button" className="icon-button icon-button-small kanban-handle" {...attributes} onKeyDown={onKeyDown} aria-label={format('layout.kanban.move', { item: title })}>
          <GripVertical aria-hidden="true" size={16} />
        </button>
      ) : null}
      <button type="button" className="kanban-card-title" onClick={onOpen}>
        {title}
      </button>
    </li>
  );
}
