import { formatMessage } from '../definitions/messages/format.ts';

/** The console shell. The model-driven router replaces this page in the console issue. */
export function App() {
  return (
    <main>
      <h1>{formatMessage('app.name')}</h1>
    </main>
  );
}
