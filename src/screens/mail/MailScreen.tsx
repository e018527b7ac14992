/** Mail (docs/mail.md): the project's app-user mail templates, sender settings and delivery log. */
import { useFormat } from '../../../renderers/messages/use-format.ts';

export default function MailScreen() {
  const format = useFormat();
  return (
    <section className="panel" aria-labelledby="mail-title">
      <h1 id="mail-title">{format('route.viewMail.title')}</h1>
    </section>
  );
}
