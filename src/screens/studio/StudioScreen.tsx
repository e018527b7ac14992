/** Studio (docs/studio.md): the project's API workbench and the reference of its generated document. */
import { useFormat } from '../../../renderers/messages/use-format.ts';

export default function StudioScreen() {
  const format = useFormat();
  return (
    <section className="panel" aria-labelledby="studio-title">
      <h1 id="studio-title">{format('route.viewBagelStudio.title')}</h1>
    </section>
  );
}
