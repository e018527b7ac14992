/**
 * `/` for a user without an organization (the home guard sends everyone else to theirs): a
 * persistent dialog asks to create the first one. It offers a way out too: the
 * page behind it cannot be reached while it is open, sign-out included.
 */
import { useNavigate } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { ModalDialog } from '../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useLogout, useMe } from '../api/queries.ts';
import { NewOrganizationForm } from './organization/NewOrganizationForm.tsx';

export default function HomeScreen() {
  const format = useFormat();
  const navigate = useNavigate();
  const logout = useLogout();
  const { data: me } = useMe();
  const noOrganization = me !== undefined && me.organizations.length === 0;
  return (
    <section className="page" aria-labelledby="home-title">
      <h1 id="home-title">{format('route.home.title')}</h1>
      <p className="page-intro">{format('home.noOrganization.body')}</p>
      <ModalDialog
        open={noOrganization}
        onOpenChange={() => undefined}
        persistent
        name="firstOrganization"
        title={format('home.noOrganization.title')}
        description={format('home.noOrganization.body')}
        widthPx={480}
      >
        {({ titleId }) => (
          <>
            <NewOrganizationForm labelledBy={titleId} showIntro={false} />
            <p className="form-switch dialog-footer">
              <button
                type="button"
                className="button button-quiet"
                onClick={() => logout.mutate(undefined, { onSettled: () => navigate(routePath('login'), { replace: true }) })}
              >
                {format('nav.signOut')}
              </button>
            </p>
          </>
        )}
      </ModalDialog>
    </section>
  );
}
