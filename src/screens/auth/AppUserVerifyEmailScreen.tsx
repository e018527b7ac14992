/**
 * bagel-auth-verify-email/{verifyID} (docs/mail.md "Verification of app users' addresses"): the
 * public page an app user's verification mail links to. No console sign-in: on load it confirms the
 * address once through the public call and says so, or that the link is invalid, expired or used
 * (the server's problem, in the catalogue's words). The console's own session is left alone.
 */
import '../../../definitions/messages/areas/mail.ts';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { mailLimits } from '../../../definitions/mail.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { useVerifyAppUserEmail } from '../../api/mail-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';

export default function AppUserVerifyEmailScreen() {
  const format = useFormat();
  const { verifyID = '' } = useParams();
  const verify = useVerifyAppUserEmail();
  const problemMessage = useProblemMessage();
  // The link works once: one call per page, even when effects run twice (React's strict mode).
  const sent = useRef<string | null>(null);
  const { mutate } = verify;
  useEffect(() => {
    if (sent.current === verifyID) return;
    sent.current = verifyID;
    mutate(verifyID);
  }, [verifyID, mutate]);

  return (
    <div className="form">
      <h1 className="form-title">{format('route.bagelAuthVerifyEmail.title')}</h1>
      {verify.isSuccess ? (
        <p className="callout-success" role="status">
          {verify.data.project ? format('appUserVerify.doneFor', { project: verify.data.project }) : format('appUserVerify.done')}
        </p>
      ) : verify.isError ? (
        <div className="callout-error" role="alert">
          <p>
            <strong>{format('appUserVerify.failedTitle')}</strong>
          </p>
          <p>{problemMessage(verify.error)}</p>
          <p>{format('appUserVerify.failedHelp', { hours: mailLimits.verificationTtlHours })}</p>
        </div>
      ) : (
        <p className="muted" role="status">
          {format('appUserVerify.confirming')}
        </p>
      )}
    </div>
  );
}
