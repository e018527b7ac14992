/**
 * A stale save (409): the person's version of each disputed field beside the current
 * one, chosen field by field (or all at once), then saved again against the current version.
 * Shared by the item page (with its own Save here) and the linked-item dialog (whose footer saves).
 */
import { useEffect, useId, useRef } from 'react';
import { fieldType, textField, type SchemaField } from '../../definitions/field-types/index.ts';
import type { ConflictSide, ItemConflict } from '../../machines/item-form-rules.ts';
import { displayFor } from './displays.ts';
import { useFormat } from '../messages/use-format.ts';
import './conflict-panel.css';

export interface ConflictPanelProps {
  conflict: ItemConflict;
  schema: readonly SchemaField[];
  busy: boolean;
  onChoose(slug: string, side: ConflictSide): void;
  onChooseAll(side: ConflictSide): void;
  /** Draws a Save button under the fields; without it the surrounding form saves the choice. */
  onSave?: (() => void) | undefined;
}

function ConflictValue({ field, value }: { field: SchemaField; value: unknown }) {
  const format = useFormat();
  const empty = fieldType(field.type)?.isEmpty(value) ?? (value === null || value === undefined);
  if (empty) return <span className="muted">{format('item.notSet')}</span>;
  const Display = displayFor(field);
  return <Display field={field} value={value} />;
}

export function ConflictPanel({ conflict, schema, busy, onChoose, onChooseAll, onSave }: ConflictPanelProps) {
  const format = useFormat();
  const id = useId();
  const titleId = `${id}-title`;
  // The panel appears after a refused save: focus moves to its heading, so the choice is where the person is.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const sides: { side: ConflictSide; label: string; value: (entry: ItemConflict['fields'][number]) => unknown }[] = [
    { side: 'mine', label: format('item.conflictMine'), value: (entry) => entry.mine },
    { side: 'theirs', label: format('item.conflictTheirs'), value: (entry) => entry.theirs },
  ];
  return (
    <section className="item-conflict" aria-labelledby={titleId} role="region">
      <h3 id={titleId} ref={heading} tabIndex={-1}>{format('item.conflictTitle')}</h3>
      <p>{format('item.conflictHint')}</p>
      <div className="item-conflict-all">
        <button type="button" className="button button-small" disabled={busy} onClick={() => onChooseAll('mine')}>
          {format('item.conflictAllMine')}
        </button>
        <button type="button" className="button button-small" disabled={busy} onClick={() => onChooseAll('theirs')}>
          {format('item.conflictAllTheirs')}
        </button>
      </div>
      <div className="item-conflict-fields">
        {conflict.fields.map((entry) => {
          const field = schema.find((candidate) => candidate.slug === entry.slug) ?? textField(entry.slug, entry.name);
          return (
            <fieldset key={entry.slug} className="item-conflict-field" data-conflict-field={entry.slug}>
              <legend>
                {entry.name}
                {entry.clash ? <span className="item-conflict-clash">{format('item.conflictBoth')}</span> : null}
              </legend>
              <div className="item-conflict-sides">
                {sides.map(({ side, label, value }) => {
                  const choiceId = `${id}-${entry.slug}-${side}`;
                  return (
                    <div key={side} className={entry.choice === side ? 'item-conflict-side is-chosen' : 'item-conflict-side'}>
                      <div className="item-conflict-choice">
                        <input
                          type="radio"
                          id={choiceId}
                          name={`${id}-${entry.slug}`}
                          checked={entry.choice === side}
                          disabled={busy}
                          aria-describedby={`${choiceId}-value`}
                          onChange={() => onChoose(entry.slug, side)}
                        />
                        <label htmlFor={choiceId}>{label}</label>
                      </div>
                      <div id={`${choiceId}-value`} className="item-conflict-value">
                        <ConflictValue field={field} value={value(entry)} />
                      </div>
                    </div>
                  );
                })}
              </div>
            </fieldset>
          );
        })}
      </div>
      {onSave ? (
        <div>
          <button type="button" className="button button-primary" disabled={busy} onClick={onSave}>
            {format('item.conflictSave')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
