/**
 * The fields of a webhook: Name, URI, HTTP Method (POST, PUT), Trigger
 * (create, update, delete) and the Select Collections tree with a filter box. The tree lists each
 * collection and, under it, its nested collections (`posts.comments`); ticking a row selects that
 * list only, never the lists under it. No ticked row means every collection.
 */
import { useId, useMemo, useState } from 'react';
import { webhookLimits, webhookMethods, webhookTriggers } from '../../../../definitions/webhooks.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import type { WebhookDraft } from '../../../api/webhooks.ts';

interface SchemaLike {
  name: string;
  slug: string;
  nestedCollectionSchema?: SchemaLike[];
}

export interface CollectionLike {
  id: string;
  name: string;
  schema?: unknown;
}

interface TreeNode {
  key: string;
  label: string;
  depth: number;
}

/** The tree's rows, depth first: each collection, then its nested collections under it. */
export function collectionTree(collections: readonly CollectionLike[]): TreeNode[] {
  const rows: TreeNode[] = [];
  const walk = (fields: SchemaLike[], prefix: string, depth: number) => {
    for (const field of fields) {
      if (!Array.isArray(field.nestedCollectionSchema)) continue;
      const key = `${prefix}.${field.slug}`;
      rows.push({ key, label: field.name, depth });
      walk(field.nestedCollectionSchema, key, depth + 1);
    }
  };
  for (const collection of collections) {
    rows.push({ key: collection.id, label: collection.name, depth: 0 });
    if (Array.isArray(collection.schema)) walk(collection.schema as SchemaLike[], collection.id, 1);
  }
  return rows;
}

export const emptyDraft = (): WebhookDraft => ({ name: '', webhookURI: '', method: 'POST', trigger: 'create', collections: [] });

/** Create and Save need a name, an address and a method. */
export const draftComplete = (draft: WebhookDraft) => draft.name.trim() !== '' && draft.webhookURI.trim() !== '' && draft.method !== '';

export function WebhookFields({ draft, onChange, collections }: { draft: WebhookDraft; onChange: (draft: WebhookDraft) => void; collections: readonly CollectionLike[] }) {
  const format = useFormat();
  const id = useId();
  const [filter, setFilter] = useState('');
  const tree = useMemo(() => collectionTree(collections), [collections]);
  const needle = filter.trim().toLowerCase();
  const shown = needle ? tree.filter((row) => row.label.toLowerCase().includes(needle) || row.key.toLowerCase().includes(needle)) : tree;
  const set = (change: Partial<WebhookDraft>) => onChange({ ...draft, ...change });
  const toggle = (key: string, on: boolean) => set({ collections: on ? [...draft.collections, key] : draft.collections.filter((k) => k !== key) });

  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {format('webhook.field.name')}
        </label>
        <input id={`${id}-name`} className="input" value={draft.name} maxLength={webhookLimits.nameMax} onChange={(e) => set({ name: e.target.value })} required />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-uri`}>
          {format('webhook.field.uri')}
        </label>
        <input
          id={`${id}-uri`}
          className="input"
          type="url"
          inputMode="url"
          placeholder="https://"
          value={draft.webhookURI}
          maxLength={webhookLimits.uriMax}
          onChange={(e) => set({ webhookURI: e.target.value })}
          required
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-method`}>
          {format('webhook.field.method')}
        </label>
        <select id={`${id}-method`} className="input select" value={draft.method} onChange={(e) => set({ method: e.target.value as WebhookDraft['method'] })}>
          {webhookMethods.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-trigger`}>
          {format('webhook.field.trigger')}
        </label>
        <select id={`${id}-trigger`} className="input select" value={draft.trigger} onChange={(e) => set({ trigger: e.target.value as WebhookDraft['trigger'] })}>
          {webhookTriggers.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="field webhook-collections">
        <legend className="field-label">{format('webhook.field.collections')}</legend>
        <label className="visually-hidden" htmlFor={`${id}-filter`}>
          {format('webhook.collections.filter')}
        </label>
        <input
          id={`${id}-filter`}
          className="input"
          type="search"
          autoComplete="off"
          placeholder={format('webhook.collections.filter')}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <ul className="webhook-tree" role="list">
          {shown.map((row, index) => (
            <li key={row.key} style={{ paddingInlineStart: `${row.depth * 1.25}rem` }}>
              {/* Named by the collection's label alone; a nested row's slug path is its description. */}
              <label className="webhook-tree-row">
                <input
                  type="checkbox"
                  checked={draft.collections.includes(row.key)}
                  onChange={(e) => toggle(row.key, e.target.checked)}
                  aria-labelledby={`${id}-row-${index}`}
                  aria-describedby={row.depth ? `${id}-key-${index}` : undefined}
                />
                <span id={`${id}-row-${index}`}>{row.label}</span>
                {row.depth ? (
                  <span id={`${id}-key-${index}`} className="muted webhook-tree-key">
                    {row.key}
                  </span>
                ) : null}
              </label>
            </li>
          ))}
          {shown.length === 0 ? <li className="muted">{format('webhook.collections.none')}</li> : null}
        </ul>
        <p className="field-help">{format('webhook.collections.help')}</p>
      </fieldset>
    </>
  );
}
