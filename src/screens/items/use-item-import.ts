/**
 * Runs the Import Items machine (machines/item-import.ts) for one collection: the file goes up
 * through the content API with upload progress, an abort when the machine stops the upload, and
 * the answer sorted into imported, refused (`import_refused`: the rows, nothing written) or failed.
 */
import { useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromCallback, type AnyEventObject } from 'xstate';
import { itemImportMachine, type ImportFileInput } from '../../../machines/item-import.ts';
import type { ProjectScope } from '../../api/content.ts';
import { useContentApi } from '../../api/content-queries.ts';
import { isApiError } from '../../api/errors.ts';

export function useItemImport(scope: ProjectScope, collectionID: string, onImported: () => void) {
  const api = useContentApi();
  // The machine is made once; the latest callback is the one called.
  const imported = useRef(onImported);
  imported.current = onImported;
  const machine = itemImportMachine.provide({
    actors: {
      importFile: fromCallback<AnyEventObject, ImportFileInput>(({ sendBack, input }) => {
        const controller = new AbortController();
        api
          .importItems(scope, collectionID, input.file, {
            format: input.format,
            skipBadRows: input.skipBadRows,
            ignoreUnknown: input.ignoreUnknown,
            signal: controller.signal,
            onProgress: (sent, total) => sendBack({ type: 'IMPORT.PROGRESS', sent, total }),
          })
          .then((answer) => sendBack({ type: 'IMPORT.DONE', answer }))
          .catch((error: unknown) => {
            if (controller.signal.aborted) return;
            if (isApiError(error) && error.code === 'import_refused') sendBack({ type: 'IMPORT.REFUSED', errors: error.problem?.errors ?? [] });
            else sendBack({ type: 'IMPORT.FAILED', error });
          });
        // Stopped by Cancel (or the dialog going away): the upload ends, the server rolls back.
        return () => controller.abort();
      }),
    },
    actions: { itemsImported: () => imported.current() },
  });
  const actor = useActorRef(machine);
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const busy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  return { context, busy, send: actor.send };
}
