/**
 * `/billingComplete?sessionID=…` (creditCardBillingComplete): the card provider's page returns
 * here, in the top window, once the card is saved. This confirms the card session (POST
 * billing/creditCardBillingComplete, which also applies the plan being bought) and goes on to the
 * organization's settings with `billingComplete=true` (the thank-you dialog). A session the
 * provider's callback completed first counts as done; one completed before this visit otherwise,
 * expired or of another organization says so in the catalogue's words, with a way back.
 */
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useCardSession, useCompleteCard } from '../api/billing-queries.ts';
import { useProblemMessage } from '../hooks/use-problem-message.ts';
import { isApiError } from '../api/errors.ts';
import './organization/billing.css';

export default function BillingCompleteScreen() {
  const format = useFormat();
  const navigate = useNavigate();
  const problemMessage = useProblemMessage();
  const sessionID = useSearchParams()[0].get('sessionID') ?? '';
  const complete = useCompleteCard();
  const started = useRef<string | null>(null);
  // After a failure, the session (when this user may read it) names the organization to go back to.
  const session = useCardSession(complete.isError ? sessionID : null);

  useEffect(() => {
    // Once per session, even when effects run twice (development) or the screen renders again.
    if (!sessionID || started.current === sessionID) return;
    started.current = sessionID;
    complete.mutate(sessionID, {
      onSuccess: (done) => {
        navigate(routePath('organizationSettings', { organizationID: done.organizationID }, { billingComplete: 'true' }), { replace: true });
      },
    });
  }, [sessionID, complete, navigate]);

  // The provider may have told the server first (Stripe's webhook completes the session): a
  // session completed already and readable by this admin is the card saved, not a failure.
  const completedBefore = isApiError(complete.error) && complete.error.code === 'card_session_completed' && session.data?.status === 'completed';
  useEffect(() => {
    if (completedBefore && session.data) {
      navigate(routePath('organizationSettings', { organizationID: session.data.organizationID }, { billingComplete: 'true' }), { replace: true });
    }
  }, [completedBefore, session.data, navigate]);

  const organizationID = session.data?.organizationID;
  const back = organizationID ? (
    <Link className="button button-primary" to={routePath('organizationSettings', { organizationID })}>
      {format('billingComplete.back')}
    </Link>
  ) : (
    <Link className="button" to={routePath('home')}>
      {format('billingComplete.home')}
    </Link>
  );

  return (
    <section className="page billing-complete" aria-labelledby="billing-complete-title">
      <header className="page-header">
        <h1 id="billing-complete-title">{format('route.creditCardBillingComplete.title')}</h1>
      </header>
      {!sessionID ? (
        <>
          <p role="alert" className="callout-error">
            {format('billingComplete.missing')}
          </p>
          <p>{back}</p>
        </>
      ) : complete.isError && !completedBefore ? (
        <>
          <div role="alert" className="callout-error">
            <strong>{format('billingComplete.failed')}</strong> {problemMessage(complete.error)}
          </div>
          <p>{back}</p>
        </>
      ) : (
        <p className="muted" role="status">
          {format('billingComplete.working')}
        </p>
      )}
    </section>
  );
}
