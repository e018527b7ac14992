import type { SchemaField } from '../../definitions/field-types/index.ts';

/** What every display renderer gets: the stored value (possibly unset) and its field. */
export interface DisplayProps {
  value: unknown;
  field: SchemaField;
}
