/**
 * The bare project path (NoCollectionSelected): welcome hints while the project is empty,
 * otherwise a pointer to its collections.
 */
import { Link } from 'react-router';
import { routePath } from '../../../definitions/route-path.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { useProject } from '../../api/platform-queries.ts';
import { useProjectIds, useProjectPath } from './project-context.ts';

export default function ProjectHomeScreen() {
  const format = useFormat();
  const { organizationID, projectID } = useProjectIds();
  const path = useProjectPath();
  const { data: project } = useProject(organizationID, projectID);
  if (!project) return null;
  if (project.collections.length === 0) {
    return (
      <section className="panel welcome" aria-labelledby="welcome-title">
        <h2 id="welcome-title">{format('project.welcome.title', { name: project.name })}</h2>
        <p>{format('project.welcome.intro')}</p>
        <ol className="steps">
          <li>
            <Link to={path('createCollection')}>{format('project.welcome.step1')}</Link>
          </li>
          <li>
            <Link to={path('newAPIKey')}>{format('project.welcome.step2')}</Link>
          </li>
          <li>
            <Link to={routePath('dovs')}>{format('project.welcome.step3')}</Link>
          </li>
        </ol>
      </section>
    );
  }
  return (
    <section className="panel" aria-labelledby="collections-title">
      <h2 id="collections-title">{format('project.section.collections')}</h2>
      <p className="muted">{format('project.home.choose')}</p>
      <ul className="link-list">
        {project.collections.map((collection) => (
          <li key={collection.id}>
            <Link to={path('viewCollection', { collectionID: collection.id })}>{collection.name}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
