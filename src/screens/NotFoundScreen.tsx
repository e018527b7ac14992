import { Link, useLocation } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';

export default function NotFoundScreen() {
  const format = useFormat();
  const { pathname } = useLocation();
  return (
    <section className="page" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{format('notFound.heading')}</h1>
      <p>{format('notFound.body', { path: pathname })}</p>
      <p>
        <Link to={routePath('home')}>{format('notFound.home')}</Link>
      </p>
    </section>
  );
}
