/** The public page of an app user's verification link (docs/mail.md): confirms the address on load. */
import { useFormat } from '../../../renderers/messages/use-format.ts';

export default function AppUserVerifyEmailScreen() {
  const format = useFormat();
  return <h1>{format('route.bagelAuthVerifyEmail.title')}</h1>;
}
