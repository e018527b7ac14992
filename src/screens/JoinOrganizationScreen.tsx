/** `/join/{id}`: its guard accepts the invitation or sends the user on; this shows while it works. */
import { useFormat } from '../../renderers/messages/use-format.ts';

export default function JoinOrganizationScreen() {
  const format = useFormat();
  return (
    <section className="done" aria-labelledby="join-title">
      <h1 id="join-title" className="form-title">
        {format('join.heading')}
      </h1>
    </section>
  );
}
