/**
 * A JSON body, foldable (docs/studio.md "The workbench"). Only what is unfolded is drawn, and long
 * lists and objects draw 100 entries at a time, so a body of megabytes costs a few hundred
 * elements until the reader opens more.
 */
import { useState } from 'react';
import { useFormat } from '../../../renderers/messages/use-format.ts';

/** Entries drawn per step of a list or object. */
export const jsonChunk = 100;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function JsonView({ value }: { value: unknown }) {
  return (
    <div className="json-view">
      <JsonNode name={null} value={value as Json} depth={0} />
    </div>
  );
}

function summary(value: Json[] | { [key: string]: Json }, format: ReturnType<typeof useFormat>) {
  return Array.isArray(value) ? format('studio.json.items', { count: value.length }) : format('studio.json.keys', { count: Object.keys(value).length });
}

function JsonNode({ name, value, depth }: { name: string | null; value: Json; depth: number }) {
  const format = useFormat();
  const [open, setOpen] = useState(depth === 0);
  const [shown, setShown] = useState(jsonChunk);
  const label = name === null ? null : <span className="json-key">{name}: </span>;
  if (value === null || typeof value !== 'object') {
    const kind = value === null ? 'null' : typeof value;
    return (
      <div className="json-leaf">
        {label}
        <span className={`json-${kind}`}>{JSON.stringify(value)}</span>
      </div>
    );
  }
  const entries: [string, Json][] = Array.isArray(value) ? value.slice(0, open ? shown : 0).map((child, i) => [String(i), child]) : Object.entries(value).slice(0, open ? shown : 0);
  const total = Array.isArray(value) ? value.length : Object.keys(value).length;
  const brackets = Array.isArray(value) ? '[ ]' : '{ }';
  return (
    <div className="json-branch">
      <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span aria-hidden="true" className="json-caret">
          {open ? '▾' : '▸'}
        </span>
        {label}
        <span className="json-summary">
          {brackets} {summary(value, format)}
        </span>
      </button>
      {open ? (
        <div className="json-children">
          {entries.map(([key, child]) => (
            <JsonNode key={key} name={key} value={child} depth={depth + 1} />
          ))}
          {total > shown ? (
            <button type="button" className="button button-small json-more" onClick={() => setShown(shown + jsonChunk)}>
              {format('studio.json.more', { count: Math.min(jsonChunk, total - shown), left: total - shown })}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
