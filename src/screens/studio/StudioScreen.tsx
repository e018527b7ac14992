/**
 * Studio (docs/studio.md): the project's API workbench and the reference of its generated
 * document. The workbench stays mounted while the reference is shown, so its request, answer and
 * token survive a look at the reference; the reference's chunk (swagger-ui) loads on first use.
 */
import '../../../definitions/messages/areas/studio.ts';
import { lazy, Suspense, useState } from 'react';
import { Tabs } from 'radix-ui';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { useStudioDocument } from '../../api/studio-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useProjectIds } from '../project/project-context.ts';
import { Workbench } from './Workbench.tsx';
import './studio.css';

const StudioReference = lazy(() => import('./StudioReference.tsx'));

type Tab = 'workbench' | 'reference';

export default function StudioScreen() {
  const format = useFormat();
  const [tab, setTab] = useState<Tab>('workbench');
  const [referenceOpened, setReferenceOpened] = useState(false);
  return (
    <section className="panel studio-screen" aria-labelledby="studio-title">
      <h1 id="studio-title">{format('route.viewBagelStudio.title')}</h1>
      <Tabs.Root
        className="tabs"
        value={tab}
        onValueChange={(value) => {
          setTab(value as Tab);
          if (value === 'reference') setReferenceOpened(true);
        }}
      >
        <Tabs.List className="tab-list" aria-label={format('studio.tabs')}>
          <Tabs.Trigger className="tab" value="workbench">
            {format('studio.tab.workbench')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="reference">
            {format('studio.tab.reference')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-panel" value="workbench" forceMount hidden={tab !== 'workbench'}>
          <Workbench origin={window.location.origin} />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="reference" forceMount hidden={tab !== 'reference'}>
          {referenceOpened ? <Reference /> : null}
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

function Reference() {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const { organizationID, projectID } = useProjectIds();
  const document = useStudioDocument(organizationID, projectID);
  const loading = (
    <p className="muted" role="status">
      {format('studio.reference.loading')}
    </p>
  );
  if (document.isError) {
    return (
      <div className="studio-error" role="alert">
        <p>{problemMessage(document.error)}</p>
        <button type="button" className="button" onClick={() => void document.refetch()}>
          {format('studio.reference.retry')}
        </button>
      </div>
    );
  }
  if (!document.data) return loading;
  return (
    <Suspense fallback={loading}>
      <StudioReference document={document.data} />
    </Suspense>
  );
}
