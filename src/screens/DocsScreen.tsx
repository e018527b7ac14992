/** `/dovs`: the in-console documentation page. */
import { Link } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';

/** Served by the server itself (OpenAPI UI), outside the console's routes. */
const API_REFERENCE = '/api/docs';

export default function DocsScreen() {
  const format = useFormat();
  return (
    <article className="page prose" aria-labelledby="docs-title">
      <h1 id="docs-title">{format('docs.heading')}</h1>
      <p>{format('docs.intro')}</p>
      <h2>{format('docs.consoleHeading')}</h2>
      <p>{format('docs.console')}</p>
      <h2>{format('docs.apiHeading')}</h2>
      <p>{format('docs.api')}</p>
      <p>
        <a href={API_REFERENCE}>{format('docs.apiLink')}</a>
      </p>
      <h2>{format('docs.mailHeading')}</h2>
      <p>{format('docs.mail')}</p>
      <p>
        <Link to={routePath('devMailbox')}>{format('nav.devMailbox')}</Link>
      </p>
    </article>
  );
}
