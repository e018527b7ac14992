/**
 * A call's answer: status, time, `item-count`, size, the headers and the body (a foldable tree for
 * JSON, else text). Raw text shows its first 100 KB so a large body never freezes the page.
 */
import { useId, useMemo, useState } from 'react';
import { formatSize } from '../../../definitions/format-size.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { StudioResult } from '../../api/studio.ts';
import { JsonView } from './JsonView.tsx';

/** Characters of raw text drawn at most. */
export const rawShownMax = 100_000;

type Parsed = { ok: true; value: unknown } | { ok: false };

function parse(result: StudioResult): Parsed {
  if (result.text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(result.text) as unknown };
  } catch {
    return { ok: false };
  }
}

export function ResponseView({ result }: { result: StudioResult }) {
  const format = useFormat();
  const id = useId();
  const parsed = useMemo(() => parse(result), [result]);
  const [raw, setRaw] = useState(false);
  const size = useMemo(() => new TextEncoder().encode(result.text).length, [result]);
  const ok = result.status >= 200 && result.status < 300;
  const showRaw = raw || !parsed.ok;
  return (
    <section className="studio-response" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="visually-hidden">
        {format('studio.response')}
      </h3>
      <p className="studio-status-line" role="status">
        <span className={`studio-status ${ok ? 'studio-status-ok' : 'studio-status-error'}`} data-testid="studio-status">
          {result.status} {result.statusText}
        </span>
        <span>{format('studio.time', { ms: result.timeMs })}</span>
        {result.itemCount !== null ? <span data-testid="studio-item-count">{format('studio.itemCount', { count: result.itemCount })}</span> : null}
        <span>{formatSize(size)}</span>
      </p>
      <details className="studio-headers">
        <summary>{format('studio.headers', { count: result.headers.length })}</summary>
        <dl>
          {result.headers.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </details>
      {parsed.ok ? (
        <div className="studio-body-mode">
          <button type="button" className="button button-small" aria-pressed={!raw} onClick={() => setRaw(false)}>
            {format('studio.body.tree')}
          </button>
          <button type="button" className="button button-small" aria-pressed={raw} onClick={() => setRaw(true)}>
            {format('studio.body.raw')}
          </button>
        </div>
      ) : null}
      <div className="studio-body" data-testid="studio-body">
        {result.text === '' ? (
          <p className="muted">{format('studio.body.empty')}</p>
        ) : showRaw ? (
          <>
            <pre className="studio-raw" tabIndex={0} aria-label={format('studio.body.raw')}>
              {result.text.length > rawShownMax ? result.text.slice(0, rawShownMax) : result.text}
            </pre>
            {result.text.length > rawShownMax ? <p className="muted">{format('studio.body.truncated', { shown: formatSize(rawShownMax), size: formatSize(size) })}</p> : null}
          </>
        ) : (
          <JsonView value={parsed.value} />
        )}
      </div>
    </section>
  );
}
