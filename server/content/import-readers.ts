/**
 * The readers of an item import (docs/content-storage.md "Importing items"): a stream of CSV
 * (a header row of keys), one JSON array of objects, or NDJSON (one object per line), turned
 * into records one at a time, with where each came from (the 1-based physical line of the file,
 * or for a JSON array the record's 1-based index). Nothing reads the whole file: each reader
 * pulls the next chunk only when its records have been taken (the source's backpressure).
 */
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

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
 * CSV as RFC 4180 (what our export and spreadsheets write), read by CsvScanner below: records
 * ending in LF or CRLF (a lone CR is data), a BOM dropped, empty lines skipped, rows of any
 * length (the caller compares them with the header). Each record comes with the physical line it
 * starts on (LFs inside quoted cells counted).
 */
function csvRecords(source: Readable, options: ReaderOptions): RecordSource {
  const scanner = new CsvScanner(options.recordMax);
  const iterator = (async function* () {
    const decoder = new StringDecoder('utf8');
    for await (const chunk of counted(source, options.onBytes)) yield* scanner.push(decoder.write(chunk), false);
    yield* scanner.push(decoder.end(), true);
  })();
  let header: Promise<string[] | undefined> | undefined;
  const readHeader = () => (header ??= iterator.next().then((first) => (first.done ? undefined : first.value.cells)));
  return {
    header: readHeader,
    records: (async function* () {
      await readHeader();
      yield* iterator;
    })(),
  };
}

const quote = 0x22;
const comma = 0x2c;
const lf = 0x0a;
const cr = 0x0d;

/**
 * A CSV reader fed the file's text chunk by chunk, keeping its place between chunks (a cell or a
 * record may span any number of them). csv-parse (with `info`, which the line numbers needed)
 * took about a quarter of an import's time; this scans unquoted cells character by character and
 * quoted ones with `indexOf`, and reads the same records (tests/server/import-readers.test.ts
 * compares the two on awkward files). A quote inside an unquoted cell, anything but a separator
 * after a closing quote, and a quote not closed at the end are errors, as in csv-parse's strict
 * mode.
 */
export class CsvScanner {
  private cells: string[] = [];
  private cell = '';
  /** Where the scan is: at a cell's start, inside an unquoted or a quoted cell, or just after a closing quote. */
  private state: 'start' | 'plain' | 'quoted' | 'closed' = 'start';
  /** Whether the record has a quoted cell (`""` alone on a line is a record, an empty line is not). */
  private quotedRecord = false;
  private recordChars = 0;
  /** The physical line being read, and the one the current record started on (0: not started). */
  private line = 1;
  private recordLine = 0;
  /** Text held back from the last chunk: trailing quotes and CRs, which the next chunk's first character explains. */
  private carry = '';
  private first = true;

  constructor(private readonly recordMax: number) {}

  private broken(message: string): UnreadableFileError {
    return new UnreadableFileError({ line: this.recordLine || this.line }, `The file is not valid CSV: ${message}`);
  }

  private add(text: string) {
    this.cell += text;
    this.recordChars += text.length;
    if (this.recordChars > this.recordMax) throw this.broken(`a record is longer than ${this.recordMax} characters`);
  }

  private endCell() {
    this.cells.push(this.cell);
    this.cell = '';
    this.state = 'start';
  }

  private endRecord(out: { place: RecordPlace; kind: 'cells'; cells: string[] }[]) {
    this.endCell();
    const cells = this.cells;
    if (!(cells.length === 1 && cells[0] === '' && !this.quotedRecord)) out.push({ place: { line: this.recordLine }, kind: 'cells', cells });
    this.cells = [];
    this.quotedRecord = false;
    this.recordChars = 0;
    this.recordLine = 0;
  }

  /** The records completed by `chunk` (`last`: the file ends after it). */
  push(chunk: string, last: boolean): { place: RecordPlace; kind: 'cells'; cells: string[] }[] {
    let text = this.carry + chunk;
    if (this.first && text.length) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.carry = '';
    if (!last) {
      let keep = text.length;
      while (keep > 0 && (text.charCodeAt(keep - 1) === quote || text.charCodeAt(keep - 1) === cr)) keep -= 1;
      this.carry = text.slice(keep);
      text = text.slice(0, keep);
    }
    const out: { place: RecordPlace; kind: 'cells'; cells: string[] }[] = [];
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.recordLine === 0) this.recordLine = this.line;
      if (this.state === 'quoted') {
        const q = text.indexOf('"', i);
        const stop = q === -1 ? n : q;
        for (let at = text.indexOf('\n', i); at !== -1 && at < stop; at = text.indexOf('\n', at + 1)) this.line += 1;
        if (q === -1) {
          this.add(text.slice(i));
          i = n;
        } else if (text.charCodeAt(q + 1) === quote) {
          this.add(text.slice(i, q + 1));
          i = q + 2;
        } else {
          this.add(text.slice(i, q));
          this.state = 'closed';
          i = q + 1;
        }
        continue;
      }
      if (this.state === 'closed') {
        const c = text.charCodeAt(i);
        if (c === comma) {
          this.endCell();
          i += 1;
        } else if (c === lf || (c === cr && text.charCodeAt(i + 1) === lf)) {
          this.endRecord(out);
          this.line += 1;
          i += c === lf ? 1 : 2;
        } else throw this.broken('a closing quote is followed by something other than a comma or the end of the line');
        continue;
      }
      if (this.state === 'start' && text.charCodeAt(i) === quote) {
        this.state = 'quoted';
        this.quotedRecord = true;
        i += 1;
        continue;
      }
      let j = i;
      let c = 0;
      for (; j < n; j += 1) {
        c = text.charCodeAt(j);
        if (c === comma || c === lf || c === quote || (c === cr && text.charCodeAt(j + 1) === lf)) break;
      }
      if (j > i) this.add(text.slice(i, j));
      if (j === n) {
        this.state = 'plain';
        break;
      }
      if (c === quote) throw this.broken('a quote inside a cell that does not start with one');
      if (c === comma) {
        this.endCell();
        i = j + 1;
      } else {
        this.endRecord(out);
        this.line += 1;
        i = j + (c === lf ? 1 : 2);
      }
    }
    if (last) {
      if (this.state === 'quoted') throw this.broken('a quote is not closed');
      if (this.state !== 'start' || this.cells.length > 0) this.endRecord(out);
    }
    return out;
  }
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
