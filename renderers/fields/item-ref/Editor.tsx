/**
 * ItemRef: links to items of the field's referenced collection. A search box asks the collection's
 * list search 300 ms after the last keystroke; picked items show as chips that
 * can be removed or edited in a dialog, and the same dialog creates a new item of the collection,
 * which is then picked (LinkedItemDialog). A field with nested
 * collections to pick from asks, under each linked item, for at least one of their items: those
 * selections sit on the link, keyed by the nested collection's slug.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';
import { Pencil, Plus, X } from 'lucide-react';
import { ui } from '../../../definitions/constants.ts';
import { contentLimits } from '../../../definitions/content.ts';
import { isPlainObject } from '../../../definitions/field-types/support.ts';
import type { ProjectScope } from '../../../src/api/content.ts';
import { useCollection, useItemList } from '../../../src/api/content-queries.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf, firstCharacters, useReportProblem } from '../editor-support.ts';
import { useEditorEnvironment, type LinkedItemRef } from '../editor-environment.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';
import { useDebouncedValue } from '../use-debounced-value.ts';
import { itemTitle } from './item-title.ts';
import { LinkedItemDialog } from './LinkedItemDialog.tsx';
import { NestedRefPicker } from './NestedRefPicker.tsx';

/** Matches offered at once: enough to choose from, few enough to read. */
const resultsPerPage = 20;

/** A link as the value holds it: the item, its display text and any nested selections. */
type Link = LinkedItemRef & Record<string, unknown>;

const linksOf = (value: unknown): Link[] =>
  Array.isArray(value) ? value.filter((entry): entry is Link => isPlainObject(entry) && typeof entry.itemRefID === 'string') : [];

const selectionsOf = (link: Link, slug: string): LinkedItemRef[] => {
  const chosen = link[slug];
  return Array.isArray(chosen) ? chosen.filter((entry): entry is LinkedItemRef => isPlainObject(entry) && typeof entry.itemRefID === 'string') : [];
};

export function ItemRefEditor({ field, value, onChange, onBlur, error, disabled, required, id, describedBy, onProblem }: EditorProps) {
  const format = useFormat();
  const { scope } = useEditorEnvironment();
  const target = field.referenceCollectionID ?? '';
  const links = linksOf(value);
  const nestedSlugs = field.nestedReferenceCollectionID ?? [];
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** The linked-item dialog: creating (itemID null) or editing a linked item. */
  const [dialog, setDialog] = useState<{ itemID: string | null } | null>(null);
  const query = useDebouncedValue(term.trim(), ui.pickerSearchDebounceMs);
  const usable = scope !== undefined && target !== '';
  const anyScope: ProjectScope = scope ?? { organizationID: '', projectID: '' };
  const collection = useCollection(anyScope, target, { enabled: usable });
  const search = useItemList(anyScope, target, { search: query, perPage: resultsPerPage }, { enabled: usable && query !== '' });
  useEffect(() => {
    // Pickers only log a failed search; the box stays usable.
    if (search.error) console.error(search.error);
  }, [search.error]);

  const picked = new Set(links.map((link) => link.itemRefID));
  const results = query === '' ? [] : (search.data?.items ?? []).filter((item) => !picked.has(item._id));
  const showList = open && query !== '' && results.length > 0;
  const listId = `${id}-results`;
  const statusId = `${id}-status`;
  const optionId = (i: number) => `${id}-result-${i}`;

  const missingNested = nestedSlugs.length > 0 && links.some((link) => nestedSlugs.some((slug) => selectionsOf(link, slug).length === 0));
  useReportProblem(onProblem, missingNested ? format('editor.nestedRef.required') : undefined);

  // A link keeps its item, its display text and the nested picks the field still asks for.
  const clean = (link: Link): Link => {
    const kept: Link = { itemRefID: link.itemRefID, ...(link.value !== undefined ? { value: link.value } : {}) };
    for (const slug of nestedSlugs) if (link[slug] !== undefined) kept[slug] = link[slug];
    return kept;
  };
  const emit = (next: Link[]) => onChange(next.length ? next.map(clean) : null);
  const pick = (item: { _id: string } & Record<string, unknown>) => {
    if (picked.has(item._id) || links.length >= contentLimits.itemRefsMax) return;
    emit([...links, { itemRefID: item._id, value: itemTitle(collection.data?.schema, item) }]);
    setTerm('');
    setActive(-1);
    setOpen(false);
  };
  const remove = (itemRefID: string) => emit(links.filter((link) => link.itemRefID !== itemRefID));
  const ready = usable && collection.data !== undefined;
  const full = links.length >= contentLimits.itemRefsMax;
  // After saving in the dialog: a new item is picked; an edited one's chip takes its new name.
  const saved = (ref: LinkedItemRef) => {
    if (dialog?.itemID === null) {
      if (!picked.has(ref.itemRefID) && !full) emit([...links, { itemRefID: ref.itemRefID, value: ref.value ?? '' }]);
      return;
    }
    if (links.some((link) => link.itemRefID === ref.itemRefID && link.value !== ref.value)) {
      emit(links.map((link) => (link.itemRefID === ref.itemRefID ? { ...link, value: ref.value ?? '' } : link)));
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (results.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + results.length) % results.length);
    } else if (event.key === 'Enter' && showList && results[active]) {
      event.preventDefault();
      pick(results[active]);
    } else if (event.key === 'Escape' && showList) {
      event.preventDefault();
      setOpen(false);
    }
  };

  let status: string | undefined;
  if (!usable && target === '') status = format('editor.itemRef.noCollection');
  else if (query !== '' && search.isFetching) status = format('editor.itemRef.searching');
  else if (query !== '' && search.isSuccess && results.length === 0) status = format('editor.itemRef.noResults');

  return (
    <div className="editor editor-item-ref">
      {links.length ? (
        <ul className="chips" aria-label={format('editor.itemRef.picked')}>
          {links.map((link) => {
            const name = link.value || link.itemRefID;
            return (
              <li key={link.itemRefID} className="chip">
                <span className="chip-text">{name}</span>
                <button
                  type="button"
                  className="chip-button"
                  aria-label={format('editor.itemRef.edit', { name })}
                  disabled={disabled || !ready}
                  onClick={() => setDialog({ itemID: link.itemRefID })}
                >
                  <Pencil aria-hidden="true" size={14} />
                </button>
                <button type="button" className="chip-button" aria-label={format('editor.itemRef.remove', { name })} disabled={disabled} onClick={() => remove(link.itemRefID)}>
                  <X aria-hidden="true" size={14} />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <div className="editor-item-ref-search">
        <input
          id={id}
          className="input"
          type="search"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByOf(describedBy, status && statusId, error && messagesId(id))}
          placeholder={format('editor.itemRef.placeholder')}
          value={term}
          maxLength={contentLimits.linkMax}
          disabled={disabled || !usable}
          onChange={(event) => {
            setTerm(firstCharacters(event.target.value, contentLimits.linkMax));
            setActive(-1);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            onBlur?.();
          }}
        />
        <ul id={listId} role="listbox" className="menu editor-item-ref-results" aria-label={format('editor.itemRef.results')} hidden={!showList}>
          {showList
            ? results.map((item, i) => (
                <li
                  key={item._id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className="menu-item"
                  data-highlighted={i === active ? '' : undefined}
                  // Picking with the pointer must not blur the box first (which would close the list).
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => pick(item)}
                >
                  {itemTitle(collection.data?.schema, item)}
                </li>
              ))
            : null}
        </ul>
        <button type="button" className="button button-small" disabled={disabled || !ready || full} onClick={() => setDialog({ itemID: null })}>
          <Plus aria-hidden="true" size={16} />
          {format('editor.itemRef.create', { collection: collection.data?.name ?? target })}
        </button>
      </div>
      <p id={statusId} role="status" className="field-help editor-item-ref-status">
        {status}
      </p>
      {scope && nestedSlugs.length
        ? links.map((link) =>
            nestedSlugs.map((slug) => {
              const nestedField = collection.data?.schema.find((candidate) => candidate.slug === slug);
              return (
                <NestedRefPicker
                  key={`${link.itemRefID}.${slug}`}
                  scope={scope}
                  collectionID={target}
                  parent={link}
                  nestedField={nestedField ?? { slug, name: slug }}
                  selected={selectionsOf(link, slug)}
                  disabled={disabled}
                  onSelected={(refs) => emit(links.map((other) => (other.itemRefID === link.itemRefID ? { ...other, [slug]: refs } : other)))}
                />
              );
            }),
          )
        : null}
      <EditorMessages id={messagesId(id)} messages={[error]} />
      {dialog && scope && collection.data ? (
        <LinkedItemDialog scope={scope} collection={collection.data} itemID={dialog.itemID} onSaved={saved} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}
