/** The wire shapes of an item import (docs/content-storage.md "Importing items"), for both APIs and the console. */
import { Type, type Static } from '@sinclair/typebox';

export const ImportFormat = Type.Union([Type.Literal('csv'), Type.Literal('json'), Type.Literal('ndjson')], {
  description: 'the file format; absent: from the Content-Type (text/csv, application/json, application/x-ndjson)',
});

/** The query of `POST …/collection/{c}/import`. */
export const ImportQuery = Type.Object({
  format: Type.Optional(ImportFormat),
  skipBadRows: Type.Optional(Type.Boolean({ description: 'leave bad rows out (reported) and write the rest; otherwise one bad row refuses the whole import' })),
  ignoreUnknown: Type.Optional(Type.Boolean({ description: 'drop keys that are not fields of the collection instead of refusing them' })),
});

/** A bad row: its 1-based `line` in the file (CSV, NDJSON) or `record` in a JSON array, the key, and why. */
export const ImportRowError = Type.Object({
  line: Type.Optional(Type.Integer({ minimum: 1 })),
  record: Type.Optional(Type.Integer({ minimum: 1 })),
  path: Type.String(),
  message: Type.String(),
  code: Type.Optional(Type.String()),
  params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
});

export const ImportAnswer = Type.Object({
  importID: Type.String({ description: 'the id the live events of this import carry (`item.importID`)' }),
  imported: Type.Integer({ description: 'items written' }),
  skipped: Type.Integer({ description: 'bad rows left out (skipBadRows)' }),
  errors: Type.Array(ImportRowError, { description: 'the first 100 bad rows’ problems, in file order' }),
});
export type ImportAnswer = Static<typeof ImportAnswer>;
