import { useFormat } from '../../renderers/messages/use-format.ts';

/** First stop of the keyboard: straight to the page's content. */
export function SkipLink() {
  const format = useFormat();
  return (
    <a className="skip-link" href="#main">
      {format('app.skipToContent')}
    </a>
  );
}
