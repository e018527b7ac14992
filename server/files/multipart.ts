/**
 * Multipart bodies of the console's and the public API's upload routes, read in order: file parts
 * spooled to temporary files (server/files/spool.ts: never to memory, 413 at the limit), text
 * parts kept as they are, or (`fetched` ones) turned into files by the caller's `fetch`. A part the
 * form does not name, one file too many or a truncated text is refused, and whatever was spooled
 * so far is removed.
 */
import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { MultipartValue } from '@fastify/multipart';
import { badRequest, unsupportedMediaType as unsupported } from '../lib/errors.ts';
import { invalid } from '../content/collections.ts';
import { spool, tooLarge, type Spooled } from './spool.ts';

/** The parts a form may have. */
export interface FormSpec {
  /** Parts that carry files. */
  files: readonly string[];
  /** Parts that carry text. */
  texts: readonly string[];
  /** How many files (uploaded or fetched) one call may carry. */
  maxFiles: number;
  /** The refusal's detail when the body is not multipart. */
  notMultipart: string;
  /** Text parts that name a file to fetch, and how to fetch it into a temporary file. */
  fetched?: { parts: readonly string[]; fetch: (text: string, part: string) => Promise<Spooled> };
}

/** One part as it came: a text, a file, or a text fetched into a file. */
export interface FormPart {
  field: string;
  text?: string;
  upload?: Spooled;
}

export interface Form {
  parts: FormPart[];
  /** The spooled files, in order. */
  uploads: Spooled[];
  /** Removes the temporary files (call before answering: nothing of an upload outlives its call). */
  cleanup: () => Promise<unknown>;
}

/** Reads a multipart body in order, spooling its files into `spoolDir`. */
export async function readForm(request: FastifyRequest, spoolDir: string, spec: FormSpec): Promise<Form> {
  if (!request.isMultipart()) throw unsupported('multipart_expected', spec.notMultipart);
  const parts: FormPart[] = [];
  const uploads: Spooled[] = [];
  const cleanup = () => Promise.all(uploads.map((upload) => rm(upload.file, { force: true })));
  const add = (part: FormPart) => {
    parts.push(part);
    if (part.upload) uploads.push(part.upload);
  };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!spec.files.includes(part.fieldname) || uploads.length >= spec.maxFiles) {
          part.file.resume();
          throw invalid([{ path: part.fieldname, message: uploads.length >= spec.maxFiles ? 'is one file too many' : 'is not a known part of this form' }]);
        }
        add({ field: part.fieldname, upload: await spool(part, spoolDir) });
        continue;
      }
      const value = (part as MultipartValue).value;
      const text = typeof value === 'string' ? value : String(value);
      if (!spec.texts.includes(part.fieldname)) throw invalid([{ path: part.fieldname, message: 'is not a known part of this form' }]);
      if (part.valueTruncated) throw invalid([{ path: part.fieldname, message: 'is too long' }]);
      if (spec.fetched?.parts.includes(part.fieldname)) {
        if (uploads.length >= spec.maxFiles) throw invalid([{ path: part.fieldname, message: 'is one file too many' }]);
        add({ field: part.fieldname, text, upload: await spec.fetched.fetch(text, part.fieldname) });
      } else add({ field: part.fieldname, text });
    }
  } catch (error) {
    await cleanup();
    // Limits busboy reports by erroring (too many parts or files) are the caller's mistake.
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('too_many_parts', (error as Error).message);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  }
  return { parts, uploads, cleanup };
}

/** The last value of a text part (a part sent twice counts as its last). */
export const textOf = (form: Form, field: string): string | undefined => form.parts.findLast((p) => p.field === field && p.upload === undefined)?.text;
