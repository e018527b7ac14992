/**
 * The readers of an item import (docs/content-storage.md "Importing items"): a stream of CSV
 * (a header row of keys), one JSON array of objects, or NDJSON (one object per line), turned
 * into records one at a time, with where each came from (the 1-based physical line of the file,
 * or for a JSON array the record's 1-based index). Nothing reads the whole file: each reader
 * pulls the next chunk only when its records have been taken (the source's backpressure).
 */
import { StringDecoder } from 'node:string_decoder';
import { Transform, pipeline, type Readable } from 'node:stream';
import { parse } from 'csv-parse';

export type ImportFormat = 'csv' | 'json' | 'ndjson';
export const importFormats: readonly ImportFormat[] = ['csv', 'json', 'ndjson'];

/** Where a record is: its first physical line (CSV, NDJSON), or its 1-based index in a JSON array. */
export type RecordPlace = { line: number } | { record: number };

export type SourceRecord =
  /** CSV: the cells of a row, by the header's key (the header itself is not a record). */
  | { place: RecordPlace; kind: 'cells'; cells: string[] }
  /** JSON and NDJSON: one parsed value (the caller checks it is an object). */
  | { place: RecordPlace; kind: 'value'; value: unknown }
  /** A record that could not be read (a line that is not JSON), the others go on. */
  | { place: RecordPlace; kind: 'unreadable'; message: string };

/** The file cannot be read past this point (bad CSV quoting, a JSON array that does not close): the import is refused. */
export class UnreadableFileError extends Error {
  constructor(
    readonly place: RecordPlace,
    message: string,
  ) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

export interface ReaderOptions {
  /** Called as bytes are read, with the total so far (upload progress). */
  onBytes?: ((bytes: number) => void) | undefined;
  /** The most characters one record may take (a runaway quote must not fill memory). */
  recordMax: number;
}

/** The records of a source, and (CSV) its header's keys first. */
export interface RecordSource {
  /** CSV: the header's keys; JSON formats: undefined (keys are per record). */
  header(): Promise<string[] | undefined>;
  records: AsyncIterable<SourceRecord>;
}

export function readRecords(format: ImportFormat, source: Readable, options: ReaderOptions): RecordSource {
  if (format === 'csv') return csvRecords(source, options);
  const records = format === 'json' ? jsonArrayRecords(source, options) : ndjsonRecords(source, options);
  return { header: async () => undefined, records };
}

async function* counted(source: AsyncIterable<Buffer | string>, onBytes: ReaderOptions['onBytes']): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of source) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += buffer.length;
    onBytes?.(bytes);
    yield buffer;
  }
}

/**
 * CSV as RFC 4180 (what our export and spreadsheets write): csv-parse, records ending in LF or
 * CRLF, a BOM dropped, empty lines skipped. csv-parse's own line count goes wrong after a CRLF
 * inside a quoted cell, so lines are counted here from the bytes: each record ends at
 * `info.bytes`, and the LFs before it are its line.
 */
function csvRecords(source: Readable, options: ReaderOptions): RecordSource {
  // The bytes read but not yet assigned to a record (bounded by the parser's buffers).
  const pending: Buffer[] = [];
  let pendingStart = 0;
  let consumed = 0;
  let line = 1;
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      try {
        options.onBytes?.(bytes);
      } catch (error) {
        done(error as Error);
        return;
      }
      pending.push(chunk);
      done(null, chunk);
    },
  });
  const parser = parse({
    info: true,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    record_delimiter: ['\r\n', '\n'],
    max_record_size: options.recordMax,
  });
  pipeline(source, counter, parser, () => undefined);

  /** Byte `at` of the pending bytes (undefined past them). */
  const byteAt = (at: number): number | undefined => {
    let offset = at - pendingStart;
    for (const chunk of pending) {
      if (offset < chunk.length) return chunk[offset];
      offset -= chunk.length;
    }
    return undefined;
  };
  /** Moves past the record ending at `end`: the line it starts on (blank lines before it skipped). */
  const take = (end: number): number => {
    let at = consumed;
    for (let byte = byteAt(at); at < end && (byte === 0x0a || byte === 0x0d); byte = byteAt(++at)) if (byte === 0x0a) line += 1;
    const start = line;
    // The LFs inside the record and the one ending it.
    let offset = at - pendingStart;
    let left = end - at;
    for (const chunk of pending) {
      if (left <= 0) break;
      if (offset >= chunk.length) {
        offset -= chunk.length;
        continue;
      }
      const stop = Math.min(chunk.length, offset + left);
      for (let i = chunk.indexOf(0x0a, offset); i !== -1 && i < stop; i = chunk.indexOf(0x0a, i + 1)) line += 1;
      left -= stop - offset;
      offset = 0;
    }
    consumed = end;
    while (pending.length && pendingStart + pending[0]!.length <= consumed) pendingStart += pending.shift()!.length;
    return start;
  };

  const iterator = (async function* () {
    try {
      for await (const entry of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) yield { place: { line: take(entry.info.bytes) }, cells: entry.record };
    } catch (error) {
      const e = error as { code?: string; lines?: number; message?: string };
      if (typeof e.code === 'string' && e.code.startsWith('CSV_')) {
        // The record being read starts on the line after the last one taken.
        throw new UnreadableFileError({ line }, `The file is not valid CSV: ${e.message ?? e.code}`);
      }
      throw error;
    }
  })();
  let header: Promise<string[] | undefined> | undefined;
  const readHeader = () =>
    (header ??= iterator.next().then((first) => (first.done ? undefined : first.value.cells)));
  return {
    header: readHeader,
    records: (async function* () {
      await readHeader();
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield { place: next.value.place, kind: 'cells' as const, cells: next.value.cells };
      }
    })(),
  };
}

/** NDJSON: one JSON value per line (CRLF or LF); blank lines are skipped. */
async function* ndjsonRecords(source: Readable, options: ReaderOptions): AsyncGenerator<SourceRecord> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  const one = (text: string): SourceRecord | undefined => {
    line += 1;
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (trimmed.trim() === '') return undefined;
    try {
      return { place: { line }, kind: 'value', value: JSON.parse(line === 1 ? trimmed.replace(/^\ufeff/, '') : trimmed) };
    } catch (error) {
      return { place: { line }, kind: 'unreadable', message: `is not valid JSON (${(error as Error).message})` };
    }
  };
  for await (const chunk of counted(source, options.onBytes)) {
    const text = rest + decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const record = one(text.slice(start, end));
      start = end + 1;
      if (record) yield record;
    }
    rest = text.slice(start);
    if (rest.length > options.recordMax) throw new UnreadableFileError({ line: line + 1 }, `A line is longer than ${options.recordMax} characters.`);
  }
  const last = one(rest + decoder.end());
  if (last) yield last;
}

/**
 * One JSON array of values, split into its elements as the text arrives (a small scanner that
 * follows strings and nesting), each element parsed by JSON.parse. stream-json does the same
 * token by token in JavaScript and read about 10 MB/s here; this reads the file at JSON.parse's
 * speed (docs/content-storage.md "Importing items").
 */
async function* jsonArrayRecords(source: Readable, options: ReaderOptions): AsyncGenerator<SourceRecord> {
  const decoder = new StringDecoder('utf8');
  type State = 'start' | 'first' | 'between' | 'after' | 'value' | 'end';
  let state: State = 'start';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  let partsLength = 0;
  let index = 0;
  const broken = (message: string) => new UnreadableFileError({ record: index + 1 }, message);
  const element = (text: string): SourceRecord => {
    index += 1;
    try {
      return { place: { record: index }, kind: 'value', value: JSON.parse(text) };
    } catch (error) {
      return { place: { record: index }, kind: 'unreadable', message: `is not valid JSON (${(error as Error).message})` };
    }
  };
  const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff;
  const handle = function* (text: string): Generator<SourceRecord> {
    let start = state === 'value' ? 0 : -1;
    const finish = (end: number) => {
      const body = parts.length ? parts.join('') + text.slice(start, end) : text.slice(start, end);
      parts = [];
      partsLength = 0;
      return element(body);
    };
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (state === 'value') {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 0x5c) escaped = true;
          else if (c === 0x22) inString = false;
          continue;
        }
        if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) depth += 1;
        else if (c === 0x7d || c === 0x5d) {
          if (depth === 1) {
            // The array's own `]` ends a scalar element.
            yield finish(i);
            state = 'end';
          } else {
            depth -= 1;
            if (depth === 1) {
              yield finish(i + 1);
              state = 'after';
            }
          }
        } else if (c === 0x2c && depth === 1) {
          yield finish(i);
          state = 'between';
        }
        continue;
      }
      if (isSpace(c)) continue;
      switch (state) {
        case 'start':
          if (c !== 0x5b) throw broken('The file must be one JSON array of objects (it does not start with `[`).');
          state = 'first';
          depth = 1;
          break;
        case 'first':
        case 'between':
          if (c === 0x5d && state === 'first') {
            state = 'end';
            break;
          }
          if (c === 0x2c || c === 0x5d) throw broken('The JSON array is not valid: a value is missing between commas.');
          state = 'value';
          start = i;
          i -= 1;
          break;
        case 'after':
          if (c === 0x2c) state = 'between';
          else if (c === 0x5d) state = 'end';
          else throw broken('The JSON array is not valid: a comma is missing after this record.');
          break;
        case 'end':
          throw broken('The file holds more than one JSON array.');
      }
    }
    if (state === 'value') {
      parts.push(text.slice(start));
      partsLength += text.length - start;
      if (partsLength > options.recordMax) throw broken(`A record is longer than ${options.recordMax} characters.`);
    }
  };
  for await (const chunk of counted(source, options.onBytes)) yield* handle(decoder.write(chunk));
  yield* handle(decoder.end());
  if (state === 'start') throw broken('The file is empty: it must be one JSON array of objects.');
  if (state !== 'end') throw broken('The JSON array does not end (a `]` is missing, or a string is not closed).');
}
