/**
 * Studio's workbench (docs/studio.md "The workbench"): a request built with the item list's own
 * search, filter and paging controls, run against the public API with a Studio token minted from
 * the rights chosen; writes are confirmed first. The answer, the code for the request and the last
 * 20 requests sit beside it.
 */
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Play } from 'lucide-react';
import { fieldType, type SchemaField } from '../../../definitions/field-types/index.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import {
  conditionFromFilter,
  isWrite,
  needsItemID,
  requestProblems,
  searchFields,
  sendsBody,
  studioMethods,
  toHttp,
  type StudioMethod,
  type StudioRequest,
} from '../../../definitions/studio-request.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { useCollection, useCollections } from '../../api/content-queries.ts';
import { useApiTokens } from '../../api/platform-queries.ts';
import { runStudioCall, type StudioResult } from '../../api/studio.ts';
import { choiceKey, useStudioToken, type TokenChoice } from '../../api/studio-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useProjectScope } from '../collection/use-project-scope.ts';
import { emptyFilter, toFilterParam, type FilterState } from '../items/filter-state.ts';
import { ItemListToolbar } from '../items/ItemListToolbar.tsx';
import { PerPage } from '../items/ListFooter.tsx';
import { defaultPerPage } from '../items/paging.ts';
import '../items/items.css';
import { CodePanel } from './CodePanel.tsx';
import { addToHistory, clearHistory, readHistory, type HistoryEntry } from './history.ts';
import { ResponseView } from './ResponseView.tsx';

/** A labelled control: the label names the control by id, so options never join its name. */
function Field({ className, label, children }: { className: string; label: ReactNode; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={className}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/** A nested level of a collection: the slugs walked and the fields found there. */
interface Level {
  path: string;
  names: string[];
  fields: SchemaField[];
}

/** The collection itself and every nested collection below it, outermost first. */
function levelsOf(schema: readonly SchemaField[], prefix: string[] = [], names: string[] = []): Level[] {
  const here: Level[] = prefix.length === 0 ? [{ path: '', names: [], fields: [...schema] }] : [];
  for (const field of schema) {
    if (!field.nestedCollectionSchema) continue;
    const path = [...prefix, field.slug];
    const named = [...names, field.name];
    here.push({ path: path.join('.'), names: named, fields: field.nestedCollectionSchema });
    here.push(...levelsOf(field.nestedCollectionSchema, path, named).filter((level) => level.path !== ''));
  }
  return here;
}

const metadataSorts = ['_createdDate', '_lastUpdatedDate', '_id'];
const sortable = (fields: readonly SchemaField[]) => fields.filter((field) => fieldType(field.type)?.capabilities.sortable && !metadataSorts.includes(field.slug));
const imageFields = (fields: readonly SchemaField[]) => fields.filter((field) => fieldType(field.type)?.name === 'ImageRef');

interface Draft {
  collection: string;
  levelPath: string;
  parents: string[];
  method: StudioMethod;
  itemID: string;
  filter: FilterState;
  searchText: string;
  sort: StudioRequest['sort'];
  pageNumber: number;
  perPage: number;
  body: string;
  imageSlug: string;
  altText: string;
}

const emptyDraft: Draft = {
  collection: '',
  levelPath: '',
  parents: [],
  method: 'list',
  itemID: '',
  filter: emptyFilter,
  searchText: '',
  sort: null,
  pageNumber: 1,
  perPage: defaultPerPage,
  body: '{}',
  imageSlug: '',
  altText: '',
};

type Outcome = { kind: 'result'; result: StudioResult } | { kind: 'failed'; message: string } | null;

export function Workbench({ origin }: { origin: string }) {
  const format = useFormat();
  const id = useId();
  const scope = useProjectScope();
  const { organizationID, projectID } = scope;
  const problemMessage = useProblemMessage();
  const collections = useCollections(scope);
  const tokens = useApiTokens(organizationID, projectID);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [restored, setRestored] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [choice, setChoice] = useState<TokenChoice | null>({ kind: 'preview' });
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [history, setHistory] = useState<HistoryEntry[]>(() => readHistory(projectID));
  const token = useStudioToken(organizationID, projectID, choice);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const list = collections.data ?? [];
  const collectionID = draft.collection || list[0]?.id || '';
  const collection = useCollection(scope, collectionID);
  const levels = useMemo(() => levelsOf(collection.data?.schema ?? []), [collection.data]);
  const level = levels.find((candidate) => candidate.path === draft.levelPath) ?? levels[0];
  const fields = level?.fields ?? [];
  const levelSlugs = draft.levelPath ? draft.levelPath.split('.') : [];
  const levelNames = [collection.data?.name ?? collectionID, ...(level?.names ?? [])];

  const request: StudioRequest = useMemo(() => {
    const condition = conditionFromFilter(toFilterParam(fields, draft.filter).filter, fields);
    return {
      collection: collectionID,
      levels: levelSlugs.map((slug, i) => ({ slug, parentID: draft.parents[i] ?? '' })),
      method: draft.method,
      itemID: draft.itemID.trim(),
      conditions: condition ? [condition] : [],
      search: draft.searchText.trim() ? { text: draft.searchText, fields: searchFields(fields) } : null,
      sort: draft.sort,
      pageNumber: draft.pageNumber,
      perPage: draft.perPage,
      body: draft.body,
      upload: { imageSlug: draft.imageSlug || imageFields(fields)[0]?.slug || '', fileName: file?.name ?? '', altText: draft.altText },
    };
  }, [collectionID, draft, fields, file]);

  const problems = requestProblems(request, draft.method === 'upload' ? { hasFile: file !== null } : {});
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const chooseLevel = (change: Partial<Draft>) => {
    // Another collection or level has other fields: the filter, search and sort start over.
    setDraft((current) => ({ ...current, ...change, filter: emptyFilter, searchText: '', sort: null, pageNumber: 1, imageSlug: '' }));
    setRestored((n) => n + 1);
  };

  const run = async () => {
    setConfirming(false);
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    let status = 0;
    try {
      const minted = await token.ensure();
      const result = await runStudioCall(toHttp(request), minted.jwtToken, { file: file ?? undefined, signal: controller.signal });
      status = result.status;
      setOutcome({ kind: 'result', result });
    } catch (error) {
      if (controller.signal.aborted) return;
      setOutcome({ kind: 'failed', message: error instanceof TypeError ? format('studio.networkError') : problemMessage(error) });
    } finally {
      if (abort.current === controller) setRunning(false);
    }
    setHistory(addToHistory(projectID, { at: new Date().toISOString(), request, filter: draft.filter, searchText: draft.searchText, status }));
  };

  const submit = () => {
    if (problems.length > 0) {
      setShowProblems(true);
      return;
    }
    setShowProblems(false);
    if (isWrite(request.method)) setConfirming(true);
    else void run();
  };

  const reopen = (entry: HistoryEntry) => {
    const r = entry.request;
    setDraft({
      collection: r.collection,
      levelPath: r.levels.map((l) => l.slug).join('.'),
      parents: r.levels.map((l) => l.parentID),
      method: r.method,
      itemID: r.itemID,
      filter: entry.filter ?? emptyFilter,
      searchText: entry.searchText,
      sort: r.sort,
      pageNumber: r.pageNumber,
      perPage: r.perPage,
      body: r.body,
      imageSlug: r.upload.imageSlug,
      altText: r.upload.altText,
    });
    setFile(null);
    setRestored((n) => n + 1);
  };

  const apiTokens = tokens.data ?? [];
  const tokenError = token.error ? problemMessage(token.error) : null;
  const http = toHttp(request);

  return (
    <div className="studio-workbench">
      <form
        className="studio-builder"
        aria-labelledby={`${id}-builder`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <h2 id={`${id}-builder`} className="studio-heading">
          {format('studio.request')}
        </h2>
        <div className="studio-row">
          <Field className="studio-field" label={format('studio.collection')}>
            {(fieldId) => (
              <select id={fieldId} className="input" value={collectionID} onChange={(event) => chooseLevel({ collection: event.target.value, levelPath: '', parents: [] })}>
                {list.length === 0 ? <option value="">{format('studio.noCollections')}</option> : null}
                {list.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field className="studio-field" label={format('studio.level')}>
            {(fieldId) => (
              <select id={fieldId} className="input" value={level?.path ?? ''} onChange={(event) => chooseLevel({ levelPath: event.target.value })} disabled={levels.length < 2}>
                {levels.map((candidate) => (
                  <option key={candidate.path} value={candidate.path}>
                    {candidate.path === '' ? format('studio.level.top') : candidate.names.join(' › ')}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        {levelSlugs.length > 0 ? (
          <div className="studio-row">
            {levelSlugs.map((slug, i) => (
              <Field className="studio-field" key={`${slug}-${i}`} label={format('studio.parent', { name: levelNames[i] ?? slug })}>
                {(fieldId) => (
                  <input
                    id={fieldId}
                    className="input"
                    value={draft.parents[i] ?? ''}
                    spellCheck={false}
                    onChange={(event) => {
                      const parents = [...draft.parents];
                      parents[i] = event.target.value.trim();
                      set({ parents });
                    }}
                  />
                )}
              </Field>
            ))}
          </div>
        ) : null}

        <fieldset className="studio-methods">
          <legend className="field-label">{format('studio.method')}</legend>
          {studioMethods.map((method) => (
            <label key={method} className={`studio-method${draft.method === method ? ' studio-method-on' : ''}`}>
              <input type="radio" name={`${id}-method`} value={method} checked={draft.method === method} onChange={() => set({ method })} />
              {format(`studio.method.${method}` as MessageKey)}
            </label>
          ))}
        </fieldset>

        <div className="studio-field">
          <label className="field-label" htmlFor={`${id}-rights`}>
            {format('studio.rights')}
          </label>
          <select
            id={`${id}-rights`}
            className="input"
            value={choiceKey(choice)}
            aria-describedby={`${id}-rights-help`}
            onChange={(event) => setChoice(event.target.value === 'preview' ? { kind: 'preview' } : { kind: 'from', tokenID: event.target.value.slice('from:'.length) })}
          >
            <option value="preview">{format('studio.rights.preview')}</option>
            {apiTokens.map((apiToken) => (
              <option key={apiToken.id} value={`from:${apiToken.id}`}>
                {format('studio.rights.from', { name: apiToken.name })}
              </option>
            ))}
          </select>
          <span id={`${id}-rights-help`} className="muted studio-help">
            {token.pending ? format('studio.rights.minting') : tokenError ? null : format('studio.rights.help')}
          </span>
          {tokenError ? (
            <span className="studio-error" role="alert">
              {tokenError}
            </span>
          ) : null}
        </div>

        {needsItemID(draft.method) ? (
          <Field className="studio-field" label={format('studio.itemID', { name: levelNames[levelNames.length - 1] ?? '' })}>
            {(fieldId) => (
              <input id={fieldId} className="input" value={draft.itemID} spellCheck={false} onChange={(event) => set({ itemID: event.target.value })} />
            )}
          </Field>
        ) : null}

        {draft.method === 'list' ? (
          <>
            <ItemListToolbar
              key={`${collectionID}/${level?.path ?? ''}/${restored}`}
              scope={scope}
              schema={fields}
              searchText={draft.searchText}
              onSearchText={(searchText) => set({ searchText, pageNumber: 1 })}
              onFilter={() => undefined}
              live={null}
              filterState={{ initial: draft.filter, onStateChange: (filter) => set({ filter }) }}
            />
            <div className="studio-row">
              <Field className="studio-field" label={format('studio.sort')}>
                {(fieldId) => (
                  <select
                    id={fieldId}
                    className="input"
                    value={draft.sort?.key ?? ''}
                    onChange={(event) => set({ sort: event.target.value ? { key: event.target.value, order: draft.sort?.order ?? 'asc' } : null })}
                  >
                    <option value="">{format('studio.sort.none')}</option>
                    {sortable(fields).map((field) => (
                      <option key={field.slug} value={field.slug}>
                        {field.name}
                      </option>
                    ))}
                    {metadataSorts.map((key) => (
                      <option key={key} value={key}>
                        {key}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field className="studio-field" label={format('studio.order')}>
                {(fieldId) => (
                  <select id={fieldId} className="input" value={draft.sort?.order ?? 'asc'} disabled={!draft.sort} onChange={(event) => draft.sort && set({ sort: { key: draft.sort.key, order: event.target.value as 'asc' | 'desc' } })}>
                    <option value="asc">{format('studio.order.asc')}</option>
                    <option value="desc">{format('studio.order.desc')}</option>
                  </select>
                )}
              </Field>
            </div>
            <div className="studio-row studio-paging">
              <Field className="studio-field studio-page" label={format('studio.page')}>
                {(fieldId) => (
                  <input
                    id={fieldId}
                    className="input"
                    type="number"
                    min={1}
                    value={draft.pageNumber}
                    onChange={(event) => set({ pageNumber: Math.max(1, Math.floor(Number(event.target.value) || 1)) })}
                  />
                )}
              </Field>
              <PerPage perPage={draft.perPage} onPerPage={(perPage) => set({ perPage, pageNumber: 1 })} />
            </div>
          </>
        ) : null}

        {sendsBody(draft.method) ? (
          <Field className="studio-field" label={format('studio.body')}>
            {(fieldId) => (
              <textarea id={fieldId} className="input studio-body-input" rows={8} spellCheck={false} value={draft.body} onChange={(event) => set({ body: event.target.value })} />
            )}
          </Field>
        ) : null}

        {draft.method === 'upload' ? (
          <div className="studio-row">
            <Field className="studio-field" label={format('studio.imageField')}>
              {(fieldId) => (
                <select id={fieldId} className="input" value={request.upload.imageSlug} onChange={(event) => set({ imageSlug: event.target.value })}>
                  {imageFields(fields).length === 0 ? <option value="">{format('studio.noImageField')}</option> : null}
                  {imageFields(fields).map((field) => (
                    <option key={field.slug} value={field.slug}>
                      {field.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field className="studio-field" label={format('studio.file')}>
              {(fieldId) => (
                <input id={fieldId} className="input" type="file" accept="image/*" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
              )}
            </Field>
            <Field className="studio-field" label={format('studio.altText')}>
              {(fieldId) => (
                <input id={fieldId} className="input" value={draft.altText} onChange={(event) => set({ altText: event.target.value })} />
              )}
            </Field>
          </div>
        ) : null}

        {showProblems && problems.length > 0 ? (
          <ul className="studio-problems" role="alert">
            {problems.map((problem) => (
              <li key={problem}>{format(`studio.problem.${problem}` as MessageKey)}</li>
            ))}
          </ul>
        ) : null}

        <div className="studio-run">
          <code className="studio-call" aria-label={format('studio.call')}>
            {http.method} {http.path}
          </code>
          <button type="submit" className="button button-primary" disabled={running || choice === null}>
            <Play aria-hidden="true" size={16} />
            {running ? format('studio.running') : format('studio.run')}
          </button>
        </div>
      </form>

      <div className="studio-output">
        <section aria-labelledby={`${id}-response`}>
          <h2 id={`${id}-response`} className="studio-heading">
            {format('studio.response')}
          </h2>
          {outcome === null ? <p className="muted">{format('studio.response.none')}</p> : null}
          {outcome?.kind === 'failed' ? (
            <p className="studio-error" role="alert">
              {outcome.message}
            </p>
          ) : null}
          {outcome?.kind === 'result' ? <ResponseView result={outcome.result} /> : null}
        </section>
        <CodePanel request={request} origin={origin} />
        <History
          entries={history}
          onReopen={reopen}
          onClear={() => {
            clearHistory(projectID);
            setHistory([]);
          }}
        />
      </div>

      <ModalDialog open={confirming} onOpenChange={setConfirming} title={format('studio.confirm.title', { method: format(`studio.method.${request.method}` as MessageKey) })} name="studioConfirm" widthPx={480}>
        <p>{format('studio.confirm.text')}</p>
        <p>
          <code className="studio-call">
            {http.method} {http.path}
          </code>
        </p>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            {format('form.cancel')}
          </button>
          <button type="button" className={`button ${request.method === 'delete' ? 'button-danger' : 'button-primary'}`} onClick={() => void run()}>
            {format('studio.confirm.run')}
          </button>
        </div>
      </ModalDialog>
    </div>
  );
}

function History({ entries, onReopen, onClear }: { entries: HistoryEntry[]; onReopen: (entry: HistoryEntry) => void; onClear: () => void }) {
  const format = useFormat();
  const id = useId();
  return (
    <section className="studio-history" aria-labelledby={`${id}-title`}>
      <div className="studio-history-header">
        <h2 id={`${id}-title`} className="studio-heading">
          {format('studio.history')}
        </h2>
        {entries.length > 0 ? (
          <button type="button" className="button button-small" onClick={onClear}>
            {format('studio.history.clear')}
          </button>
        ) : null}
      </div>
      {entries.length === 0 ? (
        <p className="muted">{format('studio.history.empty')}</p>
      ) : (
        <ol className="plain-list studio-history-list">
          {entries.map((entry, i) => {
            const http = toHttp(entry.request);
            return (
              <li key={`${entry.at}-${i}`}>
                <button type="button" className="studio-history-entry" onClick={() => onReopen(entry)}>
                  <span className="studio-history-method">{format(`studio.method.${entry.request.method}` as MessageKey)}</span>
                  <code>{http.path.replace('/api/public/collection/', '')}</code>
                  <span className="muted">
                    {entry.status || '—'} · {new Date(entry.at).toLocaleTimeString()}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
