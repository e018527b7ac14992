/**
 * The search sync's handler (docs/integrations.md "Meilisearch sync"), through Meilisearch's
 * official client: a created or changed top-level item is added to the index or replaces its
 * document (`{...item, id: itemID}`, primary key `id`), a deleted one is removed, and "send a
 * test" rebuilds the index (created when missing, emptied, every item added in batches of 1,000).
 * Nested items are not documents of the index (the run says `skipped: 'nested'`).
 *
 * Every call of the client goes through the URL guard's `request` (its `httpClient`): the host is
 * checked and resolved at every call and the connection goes to the checked address, no redirect
 * is followed, a deadline and a cap on the answer. The handler waits for the tasks it enqueued only
 * until they end, so a task Meilisearch refuses fails the run with its error.
 */
import { Meilisearch, MeilisearchTaskTimeOutError, type Task } from 'meilisearch';
import { OutboundError } from '../../lib/url-guard.ts';
import { instanceCollection, itemPages } from './collection-items.ts';
import { RunFailure, type HandlerContext, type IntegrationHandler, type RunInput } from './types.ts';

/** An answer of Meilisearch that is not a success, as its error body names it. */
class MeilisearchAnswer extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MeilisearchAnswer';
  }
}

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** The client's `httpClient`: its calls through the URL guard, answers parsed, errors thrown. */
function guardedHttpClient(context: HandlerContext) {
  return async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<unknown> => {
    // The client aborts its wait for a task through the signal; a request already sent ends at the guard's deadline.
    if (init?.signal?.aborted) throw init.signal.reason;
    const method = (init?.method ?? 'GET').toUpperCase();
    if (!methods.has(method)) throw new Error(`unexpected method ${method}`);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const answer = await context.outbound.request(String(input instanceof Request ? input.url : input), {
      method: method as 'GET',
      headers,
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
      maxBytes: 1024 * 1024,
      timeoutMs: context.timeoutMs,
    });
    const text = answer.body.toString('utf8');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (answer.status >= 200 && answer.status < 300) return parsed;
    const body = (parsed ?? {}) as { code?: unknown; message?: unknown };
    throw new MeilisearchAnswer(answer.status, typeof body.code === 'string' ? body.code : 'error', typeof body.message === 'string' ? body.message.slice(0, 300) : text.slice(0, 300));
  };
}

/** What the client threw, unwrapped (it wraps the httpClient's errors in MeilisearchRequestError). */
function causeOf(error: unknown): unknown {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof MeilisearchAnswer || e instanceof OutboundError || e instanceof RunFailure) return e;
  }
  return error;
}

function failureOf(error: unknown): RunFailure {
  const e = causeOf(error);
  if (e instanceof RunFailure) return e;
  if (e instanceof OutboundError) {
    if (e.kind === 'refused') return new RunFailure(`The Meilisearch address is refused: ${e.message}`, false);
    return new RunFailure(`Meilisearch could not be reached: ${e.message}`);
  }
  if (e instanceof MeilisearchAnswer) {
    if (e.status === 401 || e.status === 403) return new RunFailure(`Meilisearch refused the API key (${e.status} ${e.code}): check the key and its rights on the index.`, false);
    const retry = e.status >= 500 || e.status === 408 || e.status === 429;
    return new RunFailure(retry ? `Meilisearch answered ${e.status}: ${e.message}` : `Meilisearch refused the request (${e.status} ${e.code}): ${e.message}`, retry);
  }
  if (e instanceof MeilisearchTaskTimeOutError) return new RunFailure(`Meilisearch did not finish the change in time: ${e.message}`);
  return new RunFailure(`The search sync failed: ${((e as Error)?.message ?? String(e)).slice(0, 300)}`);
}

/** The document of an item: its fields, and its id as the primary key (over a field called "id"). */
const documentOf = (item: Record<string, unknown>, id: string) => ({ ...item, id });

export const meilisearchHandler: IntegrationHandler = {
  async run(context: HandlerContext, input: RunInput) {
    const client = new Meilisearch({
      host: String(input.settings.host),
      ...(typeof input.settings.apiKey === 'string' && input.settings.apiKey ? { apiKey: input.settings.apiKey } : {}),
      httpClient: guardedHttpClient(context),
      defaultWaitOptions: { timeout: context.timeoutMs, interval: 100 },
    });
    const uid = String(input.settings.indexUid);
    const index = client.index(uid);
    /** Waits for the tasks in order; the first that failed fails the run (unless `tolerated` says it may). */
    const settle = async (taskUids: number[], tolerated?: (task: Task) => boolean) => {
      for (const taskUid of taskUids) {
        const task = await client.tasks.waitForTask(taskUid);
        if (task.status === 'succeeded' || tolerated?.(task)) continue;
        const reason = task.error ? `${task.error.message} (${task.error.code})` : `the task ended ${task.status}`;
        throw new RunFailure(`Meilisearch did not apply the change (task ${taskUid}): ${reason}`, false);
      }
    };
    try {
      if (input.trigger === 'test' || input.trigger === 'schedule') {
        const { level } = await instanceCollection(context.db, input);
        try {
          await client.getRawIndex(uid);
        } catch (error) {
          const e = causeOf(error);
          if (!(e instanceof MeilisearchAnswer && e.status === 404)) throw error;
          await settle([(await client.createIndex(uid, { primaryKey: 'id' })).taskUid]);
        }
        const tasks = [(await index.deleteAllDocuments()).taskUid];
        let documents = 0;
        for await (const page of itemPages(context.db, level, 1000)) {
          const batch = page.map((row) => documentOf(JSON.parse(row.json) as Record<string, unknown>, row.id));
          tasks.push((await index.addDocuments(batch, { primaryKey: 'id' })).taskUid);
          documents += batch.length;
        }
        await settle(tasks);
        return { rebuilt: true, documents, tasks: tasks.length };
      }
      const event = input.event;
      if (!event) throw new RunFailure('This run has no item event to send.', false);
      if (event.nestedPath) return { skipped: 'nested' };
      if (event.trigger === 'delete') {
        const task = await index.deleteDocument(event.itemID);
        // Nothing to remove from an index that does not exist (yet).
        await settle([task.taskUid], (t) => t.error?.code === 'index_not_found');
        return { deleted: event.itemID, taskUid: task.taskUid };
      }
      const task = await index.addDocuments([documentOf(event.item, event.itemID)], { primaryKey: 'id' });
      await settle([task.taskUid]);
      return { indexed: event.itemID, taskUid: task.taskUid };
    } catch (error) {
      throw failureOf(error);
    }
  },
};
