/**
 * `/` for a user without an organization (the home guard sends everyone else to theirs): a
 * persistent dialog asks to create the first one (platform §2).
 */
import { useFormat } from '../../renderers/messages/use-format.ts';
import { ModalDialog } from '../../renderers/dialogs/ModalDialog.tsx';
import { useMe } from '../api/queries.ts';
import { NewOrganizationForm } from './organization/NewOrganizationForm.tsx';

export default function HomeScreen() {
  const format = useFormat();
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
        {({ titleId }) => <NewOrganizationForm labelledBy={titleId} showIntro={false} />}
      </ModalDialog>
    </section>
  );
}
