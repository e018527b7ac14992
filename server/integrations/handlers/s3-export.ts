/**
 * The scheduled export's handler (docs/integrations.md "Scheduled export to S3"): the whole of the
 * instance's one collection as CSV (the CSV export's own writer, server/content/csv.ts) or JSON
 * (an array of the items as the public API answers them), written to a temporary file as it is
 * read, then PUT as ONE object `{prefix}{collection slug}/{run time, ':' as '-'}.{csv|json}`.
 *
 * The bucket's address goes through the URL guard: the endpoint is checked before anything is
 * read, and every connection the S3 client opens resolves its host through
 * `outbound.allowedAddress` (the agent's `lookup`), so it connects to the address checked then,
 * never to a second DNS answer. A refused address, credentials the bucket refuses and other 4xx
 * answers fail the run at once; a network failure, a timeout or a 5xx is retried on the schedule.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { defaultCsvLimits } from '../../content/csv-limits.ts';
import { itemsCsvStream } from '../../content/csv.ts';
import { parseListQuery } from '../../content/query/parse.ts';
import { queryTuning } from '../../content/query/tuning.ts';
import { OutboundError, type UrlGuard } from '../../lib/url-guard.ts';
import { instanceCollection, itemPages } from './collection-items.ts';
import { RunFailure, type HandlerContext, type IntegrationHandler, type RunInput } from './types.ts';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for sockets: the host resolved and checked by the guard, the checked address answered. */
export function guardedLookup(outbound: UrlGuard) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    outbound.allowedAddress(hostname).then(
      (address) => {
        const family = address.includes(':') ? 6 : 4;
        if (options.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, ''),
    );
  };
}

/** The guard's refusal inside whatever the SDK wrapped it in. */
function refusalIn(error: unknown): OutboundError | undefined {
  for (let e = error as { cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as { cause?: unknown } | undefined, depth++) {
    if (e instanceof OutboundError) return e;
  }
  return undefined;
}

/** The run's failure for an error of the S3 client. */
function s3Failure(error: unknown): RunFailure {
  const refusal = refusalIn(error);
  if (refusal?.kind === 'refused') return new RunFailure(`The bucket's address is refused: ${refusal.message}`, false);
  if (refusal) return new RunFailure(`The bucket could not be reached: ${refusal.message}`);
  const e = error as { name?: string; message?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const code = e.Code ?? e.name ?? 'Error';
  if (status === 401 || status === 403) return new RunFailure(`The bucket refused the credentials (${status} ${code}): check the access key and its secret.`, false);
  if (status === 404) return new RunFailure(`The bucket was not found (404 ${code}): check its name, region and endpoint.`, false);
  if (status && status >= 400 && status < 500 && status !== 408 && status !== 429) return new RunFailure(`The bucket refused the export (${status} ${code}).`, false);
  if (status) return new RunFailure(`The bucket answered ${status} ${code}.`);
  return new RunFailure(`The bucket could not be reached: ${(e.message ?? String(error)).slice(0, 200)}`);
}

/** The client of the instance's bucket; its connections go only to addresses the guard checked. */
function bucketClient(context: HandlerContext, settings: Record<string, unknown>) {
  const endpoint = typeof settings.endpoint === 'string' && settings.endpoint ? settings.endpoint : undefined;
  const lookup = guardedLookup(context.outbound);
  const httpAgent = new http.Agent({ keepAlive: false, lookup } as http.AgentOptions);
  const httpsAgent = new https.Agent({ keepAlive: false, lookup } as https.AgentOptions);
  const client = new S3Client({
    region: String(settings.region),
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    credentials: { accessKeyId: String(settings.accessKeyId ?? ''), secretAccessKey: String(settings.secretAccessKey ?? '') },
    // The runner retries on its schedule; the body is a file stream the SDK could not send twice.
    maxAttempts: 1,
    // Checksums only where S3 demands them: many S3-compatible servers do not understand the newer default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { httpAgent, httpsAgent, connectionTimeout: context.timeoutMs, requestTimeout: context.timeoutMs },
  });
  return {
    client,
    endpoint,
    close() {
      client.destroy();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/** `2026-11-28T19-40-00.123Z`: an ISO time a key and a file name can hold. */
export const exportTime = (date: Date) => date.toISOString().replace(/:/g, '-');

export const s3ExportHandler: IntegrationHandler = {
  async run(context: HandlerContext, input: RunInput) {
    const { settings } = input;
    const format = settings.format === 'json' ? 'json' : 'csv';
    const { row, level } = await instanceCollection(context.db, input);
    const bucket = bucketClient(context, settings);
    const dir = await mkdtemp(path.join(tmpdir(), 'larder-export-'));
    try {
      if (bucket.endpoint) {
        try {
          await context.outbound.checkResolved(bucket.endpoint);
        } catch (error) {
          throw s3Failure(error);
        }
      }
      const key = `${typeof settings.prefix === 'string' ? settings.prefix : ''}${row.slug}/${exportTime(new Date())}.${format}`;
      const file = path.join(dir, `export.${format}`);
      let items = 0;
      if (format === 'csv') {
        const csv = await itemsCsvStream(context.db, { level, query: parseListQuery(level, {}), unfilteredTotal: async () => row.itemCount }, { csv: defaultCsvLimits, listQueries: queryTuning() });
        await pipeline(csv.stream, createWriteStream(file));
        items = csv.written.rows;
      } else {
        const db = context.db;
        await pipeline(
          Readable.from(
            (async function* () {
              yield '[';
              for await (const page of itemPages(db, level, 1000)) {
                yield (items ? ',\n' : '\n') + page.map((item) => item.json).join(',\n');
                items += page.length;
              }
              yield items ? '\n]\n' : ']\n';
            })(),
          ),
          createWriteStream(file),
        );
      }
      const bytes = (await stat(file)).size;
      try {
        await bucket.client.send(
          new PutObjectCommand({
            Bucket: String(settings.bucket),
            Key: key,
            Body: createReadStream(file),
            ContentLength: bytes,
            ContentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json',
          }),
        );
      } catch (error) {
        throw s3Failure(error);
      }
      return { key, bytes, items };
    } finally {
      bucket.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
