/**
 * A function's versions, newest first: number, when saved, which one is deployed, its source in a
 * dialog, and Deploy on any other one after a confirmation — deploying an older one than the
 * deployed one is a roll back (docs/functions.md "Functions and versions").
 */
import { useId, useState } from 'react';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { ConfirmDialog } from '../../../renderers/dialogs/ConfirmDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { FunctionScope, FunctionVersionView, FunctionView } from '../../api/functions.ts';
import { useDeployFunction, useFunctionVersions } from '../../api/functions-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';

export function VersionsPanel({ scope, fn, admin }: { scope: FunctionScope; fn: FunctionView; admin: boolean }) {
  const format = useFormat();
  const id = useId();
  const versions = useFunctionVersions(scope, fn.name);
  const deploy = useDeployFunction(scope, fn.name);
  const [viewing, setViewing] = useState<FunctionVersionView | null>(null);
  const [deploying, setDeploying] = useState<FunctionVersionView | null>(null);
  const rollBack = deploying !== null && fn.deployedVersion !== null && deploying.number < fn.deployedVersion;

  return (
    <div className="function-versions-panel" data-part="versions">
      <h3 id={`${id}-title`}>{format('functions.versions.title')}</h3>
      {versions.isPending ? null : versions.isError ? (
        <p role="alert" className="form-alert">
          {problemText(versions.error, format)}
        </p>
      ) : versions.data.length === 0 ? (
        <p className="muted">{format('functions.versions.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact function-version-table" aria-labelledby={`${id}-title`}>
            <thead>
              <tr>
                <th scope="col">{format('functions.versions.number')}</th>
                <th scope="col">{format('functions.versions.saved')}</th>
                <th scope="col">{format('functions.versions.state')}</th>
                <th scope="col">
                  <span className="visually-hidden">{format('functions.versions.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {versions.data.map((version) => (
                <tr key={version.id} data-version={version.number} data-deployed={version.deployed || undefined}>
                  <td className="function-nowrap">{format('functions.versions.label', { number: version.number })}</td>
                  <td>{formatDateTime(version.createdDate)}</td>
                  <td>{version.deployed ? <span className="badge badge-active">{format('functions.versions.deployed')}</span> : null}</td>
                  <td>
                    <div className="function-row-actions">
                      <button type="button" className="button button-small" aria-label={format('functions.versions.viewNamed', { number: version.number })} onClick={() => setViewing(version)}>
                        {format('functions.versions.view')}
                      </button>
                      {admin && !version.deployed ? (
                        <button type="button" className="button button-small" aria-label={format('functions.versions.deployNamed', { number: version.number })} onClick={() => setDeploying(version)}>
                          {format('functions.versions.deploy')}
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <ModalDialog open={viewing !== null} onOpenChange={(open) => !open && setViewing(null)} title={format('functions.versions.sourceTitle', { number: viewing?.number ?? 0 })} widthPx={800} name="version-source">
        <pre className="function-source" tabIndex={0}>
          {viewing?.source}
        </pre>
      </ModalDialog>

      <ConfirmDialog
        open={deploying !== null}
        onOpenChange={(open) => !open && setDeploying(null)}
        title={format(rollBack ? 'functions.versions.rollBackTitle' : 'functions.versions.deployTitle', { number: deploying?.number ?? 0 })}
        name="deploy-version"
        cancelLabel={format('form.cancel')}
        actionLabel={format(rollBack ? 'functions.versions.rollBack' : 'functions.versions.deploy')}
        tone="primary"
        pending={deploy.isPending}
        onConfirm={() =>
          deploying &&
          deploy.mutate(deploying.id, {
            onSuccess: () => {
              void notify({ kind: 'success', title: format('functions.code.deployed', { number: deploying.number }) });
              setDeploying(null);
            },
            onError: (error) => void notify({ kind: 'error', title: problemText(error, format) }),
          })
        }
      >
        <p>
          {format(rollBack ? 'functions.versions.rollBackConfirm' : 'functions.versions.deployConfirm', { number: deploying?.number ?? 0, current: fn.deployedVersion ?? 0 })}
        </p>
      </ConfirmDialog>
    </div>
  );
}
