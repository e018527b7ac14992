/**
 * The item page: the item form (ItemFormView.tsx, shared with the linked-item dialog and driven
 * by the item-form machine) in the page's chrome: the navigation bar (title, Close, Update or
 * Create Item, the menu), the Users panel of a saved top-level item and the delete and leave
 * confirmations. The page only provides the machine's I/O: the navigations (item-page-ways-out.ts,
 * which also holds the person's own navigations while there are unsaved changes) and the stored
 * "Close after saving" choice.
 */
import { useId, useMemo, useRef, useState, useEffect } from 'react';
import { useNavigate, type Location } from 'react-router';
import { X } from 'lucide-react';
import { deleteItemDialog } from '../../../definitions/dialogs/item.ts';
import { titleField, type SchemaField } from '../../../definitions/field-types/index.ts';
import type { ItemValues } from '../../../machines/item-form-rules.ts';
import { DialogRenderer } from '../../../renderers/dialogs/DialogRenderer.tsx';
import type { EditorEnvironment } from '../../../renderers/fields/editor-environment.ts';
import { ItemFormView, ItemLeaveDialog, useItemFormSession } from '../../../renderers/fields/ItemFormView.tsx';
import type { NestedPlaceOfItem } from '../../../renderers/fields/nested-collection/nested-place.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { Collection, Item, ProjectScope } from '../../api/content.ts';
import { itemInList, listOfItem, type NestedListAddress } from '../../api/item-address.ts';
import { useProjectActions, useProjectPath } from '../project/project-context.ts';
import { loadCloseAfterSaving, saveCloseAfterSaving } from './close-after-saving.ts';
import { LeaveGuardHost } from './leave-guard.tsx';
import { useItemPageGo, useItemPageGuard } from './item-page-ways-out.ts';
import { ItemPageMenu } from './ItemPageMenu.tsx';
import './item.css';
import { fullWidthRules } from './field-width.ts';
import { ItemUsersPanel } from '../auth/ItemUsersPanel.tsx';

export interface ItemFormPageProps {
  scope: ProjectScope;
  collection: Collection;
  /** The schema of the item's level (a nested collection's for a nested item). */
  schema: readonly SchemaField[];
  /** Null for a new item. */
  itemID: string | null;
  /** A nested item: the nested list it is in. */
  nested?: NestedListAddress | undefined;
  /** Drawn as the single-item view of its collection: the menu differs, Close leaves the collection. */
  singleView?: boolean;
  /** A new item's first values (a duplicate's copy) and whether they count as a change. */
  initialValues?: ItemValues | undefined;
  markedChanged?: boolean | undefined;
  /** The single-item view shows its item again (after saving or deleting there). */
  onShowSingleItem?: (() => void) | undefined;
  /**
   * Whether a navigation to `next` keeps this form shown (a nested collection folding out beside
   * it): such navigations are not asked about. Without it only the same address keeps the form.
   */
  stays?: ((next: Location) => boolean) | undefined;
  /** Opens a nested collection of the saved item; without it the page goes to the nested list's address. */
  onOpenNested?: ((field: SchemaField, itemID: string) => void) | undefined;
  /** Told the item's name (its primary field) whenever it changes: the breadcrumbs show it. */
  onName?: ((name: string | null) => void) | undefined;
}

/** How the page names an item: its primary field, else its first text field, when set. */
export function itemName(schema: readonly SchemaField[], item: ItemValues | null): string | null {
  if (!item) return null;
  const field = titleField(schema);
  const value = field ? item[field.slug] : undefined;
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/**
 * The page's forms share one navigation blocker (leave-guard.tsx): a form on its own brings its
 * host, forms folded together use the host around them.
 */
export function ItemFormPage(props: ItemFormPageProps) {
  // A form whose machine finished (saved and closed, deleted, left) while another form's question
  // held the way out, answered Stay, is drawn afresh: it shows the item as saved, editable again.
  const [generation, setGeneration] = useState(0);
  return (
    <LeaveGuardHost>
      <ItemForm key={generation} {...props} onStayedAfterFinishing={() => setGeneration((n) => n + 1)} />
    </LeaveGuardHost>
  );
}

/** The item's editors' environment and the place its nested collections are read from. */
function useItemEditors(scope: ProjectScope, collection: Collection, nested: NestedListAddress | undefined, item: ItemValues | null, itemID: string | null, onOpenNested: ItemFormPageProps['onOpenNested']) {
  const navigate = useNavigate();
  const path = useProjectPath();
  const collectionID = collection.id;
  // The saved item's own address: its nested collections hang under it.
  const at = useMemo(() => (itemID ? itemInList(nested, itemID) : null), [nested, itemID]);
  const environment: EditorEnvironment = useMemo(
    () => ({
      scope,
      // The collection's RTL switch turns its written-text editors (nested levels included).
      direction: collection.rtlDirection ? 'rtl' : 'ltr',
      ...(item && itemID ? { item: item as Item } : {}),
      ...(at && itemID
        ? {
            onOpenNested: (field: SchemaField) => {
              if (onOpenNested) onOpenNested(field, itemID);
              else navigate(path('viewNestedCollection', { collectionID, ...listOfItem(at, field.slug) }));
            },
          }
        : {}),
    }),
    [scope, collection.rtlDirection, item, itemID, at, navigate, path, collectionID, onOpenNested],
  );
  // Where the item's nested collections are read from (their preview tables): the top-level item
  // and the chain down to this item.
  const nestedPlace: NestedPlaceOfItem | null = useMemo(() => (at ? { collectionID, parentItemID: at.itemID, itemChain: at.nestedID ?? '' } : null), [collectionID, at]);
  return { environment, nestedPlace };
}

function ItemForm({
  scope,
  collection,
  schema,
  itemID,
  nested,
  singleView = false,
  initialValues,
  markedChanged,
  onShowSingleItem,
  stays,
  onOpenNested,
  onName,
  onStayedAfterFinishing,
}: ItemFormPageProps & { onStayedAfterFinishing: () => void }) {
  const format = useFormat();
  const actions = useProjectActions();
  const id = useId();
  const widthRules = useMemo(() => fullWidthRules(id, schema), [id, schema]);
  const ways = useItemPageGo(collection.id, nested, onShowSingleItem);
  const session = useItemFormSession(
    scope,
    collection,
    schema,
    {
      itemID,
      // A nested item's chain ends in its id; a new one's names its list.
      ...(nested ? { nestedID: itemID ? itemInList(nested, itemID).nestedID : nested.nestedID, parentItemID: nested.itemID } : {}),
      closeAfterSaving: loadCloseAfterSaving(),
      ...(initialValues ? { values: initialValues } : {}),
      markedChanged: markedChanged ?? false,
    },
    { navigate: ways.go, persistCloseAfterSaving: saveCloseAfterSaving, canDelete: true },
  );
  const { snapshot, send, context, busy, loading, isNew, canSave, filesBusy } = session;
  const { leave, stay } = useItemPageGuard(session, ways, {
    stays,
    singleView,
    onStayedAfterFinishing,
    home: { kind: nested || !collection.singleItem ? 'list' : 'singleItem' },
  });
  const { environment, nestedPlace } = useItemEditors(scope, collection, nested, context.item, context.itemID, onOpenNested);

  const name = itemName(schema, context.item);
  const onNameRef = useRef(onName);
  onNameRef.current = onName;
  useEffect(() => {
    onNameRef.current?.(name);
  }, [name]);
  const title = isNew ? format('item.newTitle', { collection: collection.name }) : (name ?? (loading ? collection.name : format('item.untitled', { id: context.itemID ?? '' })));
  const titleId = `${id}-title`;

  return (
    <section className="item-page" aria-labelledby={titleId} aria-busy={busy || undefined}>
      <header className="item-page-bar">
        <button type="button" className="icon-button" aria-label={format('item.close')} onClick={leave} disabled={busy && !loading}>
          <X aria-hidden="true" size={20} />
        </button>
        <h2 id={titleId} className="item-page-title">
          {title}
        </h2>
        <div className="item-page-actions">
          <button type="button" className="button button-primary" disabled={!canSave || busy || !(isNew ? actions.create : actions.update) || filesBusy} onClick={session.save}>
            {snapshot.matches('saving') || snapshot.matches('uploadingFiles') ? format('item.saving') : format(isNew ? 'item.create' : 'item.update')}
          </button>
          <ItemPageMenu session={session} scope={scope} collectionID={collection.id} singleView={singleView} isNested={nested !== undefined} />
        </div>
      </header>

      <ItemFormView
        session={session}
        schema={schema}
        idPrefix={id}
        className="item-fields"
        environment={environment}
        nestedPlace={nestedPlace}
        saveInConflict
        frame={(fields) => (
          // Two columns when the form is wide enough (item.css): half-width fields pair up, the rest span both.
          <div className="item-form-fields" data-item-form={id}>
            {widthRules ? <style>{widthRules}</style> : null}
            {fields}
          </div>
        )}
      />
      {/* The Users panel: app users of a saved top-level item. */}
      {!loading && context.itemID && !nested ? <ItemUsersPanel place={{ ...scope, collectionID: collection.id, itemID: context.itemID }} editable={actions.update} /> : null}

      <DialogRenderer
        definition={deleteItemDialog}
        open={snapshot.matches('confirmingDelete')}
        onOpenChange={(open) => {
          if (!open) send({ type: 'CANCEL_DELETE' });
        }}
        onAction={(action) => send({ type: action === 'delete' ? 'CONFIRM_DELETE' : 'CANCEL_DELETE' })}
      />
      <ItemLeaveDialog session={session} onStay={stay} />
    </section>
  );
}
