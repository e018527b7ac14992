/**
 * The list's filter control: a field (filterable types only), an operator (the
 * type's), a value drawn for the field's kind of value. Reports the `filter` parameter as it
 * changes, text after a pause; a value without a field and operator shows a warning.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { X } from 'lucide-react';
import { fieldType, type SchemaField } from '../../../definitions/field-types/index.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { ProjectScope } from '../../api/content.ts';
import { useCollection, useItemList } from '../../api/content-queries.ts';
import {
  chooseField,
  emptyFilter,
  filterableFields,
  isBooleanField,
  isChoiceField,
  isDateField,
  isNumberField,
  isReferenceField,
  operatorsFor,
  toFilterParam,
  type FilterState,
  type RefPick,
} from './filter-state.ts';

/** ItemRef filters list the referenced collection 300 items at a time. */
export const refFilterPerPage = 300;
const typingPauseMs = 500;

export interface FilterControlProps {
  scope: ProjectScope;
  schema: readonly SchemaField[];
  onChange: (filter: string | undefined) => void;
  /** The state to start from (Studio reopening a request); empty by default. */
  initial?: FilterState;
  /** Hears every change of the control's state, before the pause text waits for. */
  onStateChange?: (state: FilterState) => void;
}

export function FilterControl({ scope, schema, onChange, initial, onStateChange }: FilterControlProps) {
  const format = useFormat();
  const id = useId();
  const [state, setState] = useState<FilterState>(initial ?? emptyFilter);
  useEffect(() => onStateChange?.(state), [state]);
  const fields = useMemo(() => filterableFields(schema), [schema]);
  const field = fields.find((candidate) => candidate.slug === state.key);
  const outcome = useMemo(() => toFilterParam(schema, state), [schema, state]);
  const typed = field !== undefined && !isBooleanField(field) && !isChoiceField(field) && !isReferenceField(field) && !isDateField(field);

  useEffect(() => {
    if (outcome.missingFieldOrOperator) return undefined;
    const timer = setTimeout(() => onChange(outcome.filter), typed ? typingPauseMs : 0);
    return () => clearTimeout(timer);
    // Text settles before it is sent; choices apply at once.
  }, [outcome.filter, outcome.missingFieldOrOperator]);

  const warningId = `${id}-warning`;
  return (
    <fieldset className="item-filter">
      <legend className="visually-hidden">{format('itemList.filter')}</legend>
      <label className="item-filter-part">
        <span className="field-label">{format('itemList.filter.field')}</span>
        <select className="input" value={state.key} onChange={(event) => setState(event.target.value ? chooseField(schema, event.target.value) : { ...emptyFilter, value: state.value })}>
          <option value="">{format('itemList.filter.noField')}</option>
          {fields.map((candidate) => (
            <option key={candidate.id} value={candidate.slug}>
              {candidate.name}
            </option>
          ))}
        </select>
      </label>
      <label className="item-filter-part">
        <span className="field-label">{format('itemList.filter.operator')}</span>
        <select className="input" value={state.operator} disabled={!field} onChange={(event) => setState({ ...state, operator: event.target.value as FilterState['operator'] })}>
          <option value="">{format('itemList.filter.noOperator')}</option>
          {operatorsFor(field).map((operator) => (
            <option key={operator} value={operator}>
              {format(`itemList.filter.op.${operator}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      <div className="item-filter-part item-filter-value">
        <FilterValue
          scope={scope}
          field={field}
          state={state}
          invalid={outcome.missingFieldOrOperator}
          describedBy={outcome.missingFieldOrOperator ? warningId : undefined}
          onValue={(value) => setState({ ...state, value })}
          onRefs={(refs) => setState({ ...state, refs })}
        />
      </div>
      {state.key || state.value || state.refs.length ? (
        <button type="button" className="icon-button item-filter-clear" aria-label={format('itemList.filter.clear')} onClick={() => setState(emptyFilter)}>
          <X aria-hidden="true" size={18} />
        </button>
      ) : null}
      {outcome.missingFieldOrOperator ? (
        <p id={warningId} className="item-filter-warning" role="alert">
          {format('itemList.filter.missing')}
        </p>
      ) : null}
    </fieldset>
  );
}

interface FilterValueProps {
  scope: ProjectScope;
  field: SchemaField | undefined;
  state: FilterState;
  invalid: boolean;
  describedBy: string | undefined;
  onValue: (value: string) => void;
  onRefs: (refs: RefPick[]) => void;
}

function FilterValue({ scope, field, state, invalid, describedBy, onValue, onRefs }: FilterValueProps) {
  const format = useFormat();
  const label = <span className="field-label">{format('itemList.filter.value')}</span>;
  const common = { className: 'input', 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy };
  if (field && isBooleanField(field)) {
    return (
      <label>
        {label}
        <select {...common} value={state.value} onChange={(event) => onValue(event.target.value)}>
          <option value="true">{format('itemList.filter.true')}</option>
          <option value="false">{format('itemList.filter.false')}</option>
        </select>
      </label>
    );
  }
  if (field && isChoiceField(field)) {
    return (
      <label>
        {label}
        <select {...common} value={state.value} onChange={(event) => onValue(event.target.value)}>
          <option value="">{format('itemList.filter.noValue')}</option>
          {(field.options ?? []).map((choice) => (
            <option key={choice._id} value={choice._id}>
              {choice.value}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (field && isReferenceField(field)) return <RefPicker scope={scope} field={field} refs={state.refs} onRefs={onRefs} />;
  if (field && isDateField(field)) {
    return (
      <label>
        {label}
        <input {...common} type="datetime-local" value={state.value} onChange={(event) => onValue(event.target.value)} />
      </label>
    );
  }
  const numeric = isNumberField(field);
  return (
    <label>
      {label}
      <input {...common} type="text" inputMode={numeric ? 'decimal' : undefined} maxLength={256} value={state.value} onChange={(event) => onValue(event.target.value)} />
    </label>
  );
}

/** Picks linked items of the referenced collection (its first 300). */
function RefPicker({ scope, field, refs, onRefs }: { scope: ProjectScope; field: SchemaField; refs: readonly RefPick[]; onRefs: (refs: RefPick[]) => void }) {
  const format = useFormat();
  const target = field.referenceCollectionID ?? '';
  const { data: collection } = useCollection(scope, target);
  const list = useItemList(scope, target, { pageNumber: 1, perPage: refFilterPerPage });
  const titleField = collection?.schema.find((candidate) => candidate.primaryField) ?? collection?.schema.find((candidate) => fieldType(candidate.type)?.search === 'regex');
  const title = (item: Record<string, unknown>) => {
    const text = titleField ? (fieldType(titleField.type)?.display(item[titleField.slug], titleField) ?? '') : '';
    return text || String(item._id);
  };
  const items = list.data?.items ?? [];
  return (
    <label>
      <span className="field-label">{format('itemList.filter.refItems')}</span>
      <select
        className="input item-filter-refs"
        multiple
        size={3}
        aria-busy={list.isPending || undefined}
        value={refs.map((ref) => ref.itemRefID)}
        onChange={(event) => onRefs([...event.target.selectedOptions].map((option) => ({ itemRefID: option.value, value: option.text })))}
      >
        {list.isPending ? <option disabled>{format('itemList.filter.refLoading')}</option> : null}
        {items.map((item) => (
          <option key={item._id} value={item._id}>
            {title(item)}
          </option>
        ))}
      </select>
    </label>
  );
}
