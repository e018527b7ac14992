/**
 * newAPIKey: the token form starts blank; after Generate the form resets and
 * the new token is shown once, with a copy button.
 */
import { useState } from 'react';
import { tokenBody } from '../../../definitions/api-tokens.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { useCreateApiToken, useProject } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { CopyButton } from '../../shell/CopyButton.tsx';
import { useMyPermissions, useProjectIds } from './project-context.ts';
import { TokenForm } from './tokens/TokenForm.tsx';
import { useUserGroupOptions } from '../auth/use-group-options.ts';

export default function NewApiTokenScreen() {
  const format = useFormat();
  const { organizationID, projectID } = useProjectIds();
  const { data: project } = useProject(organizationID, projectID);
  const minter = useMyPermissions();
  const userGroups = useUserGroupOptions();
  const create = useCreateApiToken(organizationID, projectID);
  const problemMessage = useProblemMessage();
  const [minted, setMinted] = useState<{ name: string; jwtToken: string } | null>(null);

  return (
    <section className="panel" aria-labelledby="new-token-title">
      <h2 id="new-token-title">{format('token.form.title')}</h2>
      {minted ? (
        <div className="callout-success minted-token" role="status" aria-labelledby="minted-title">
          <h3 id="minted-title">{format('token.created.title')}</h3>
          <p>{format('token.created.body')}</p>
          <div className="secret-row">
            <label className="visually-hidden" htmlFor="minted-value">
              {format('token.created.value')}
            </label>
            <input id="minted-value" className="input input-mono" readOnly value={minted.jwtToken} onFocus={(event) => event.currentTarget.select()} />
            <CopyButton value={minted.jwtToken} label={format('token.copy')} />
          </div>
        </div>
      ) : null}
      <TokenForm
        labelledBy="new-token-title"
        collections={project?.collections ?? []}
        userGroups={userGroups}
        minter={minter}
        busy={create.isPending}
        error={create.error ? format('token.createFailed', { detail: problemMessage(create.error) }) : null}
        submitLabel={format('token.generate')}
        busyLabel={format('token.generating')}
        resetAfterSubmit
        onSubmit={async (draft) => {
          try {
            const token = await create.mutateAsync(tokenBody(draft));
            setMinted({ name: token.name, jwtToken: token.jwtToken });
            void notify({ kind: 'success', title: format('token.created') });
            return true;
          } catch {
            return false;
          }
        }}
      />
    </section>
  );
}
