/** Overview: a card per project (name, description, link into it) and the New Project card. */
import { useState } from 'react';
import { FolderOpen, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { routePath } from '../../../definitions/route-path.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { Organization } from '../../api/platform.ts';
import { NewProjectDialog } from './NewProjectDialog.tsx';

export function OverviewTab({ organization, canCreate }: { organization: Organization; canCreate: boolean }) {
  const format = useFormat();
  const [creating, setCreating] = useState(false);
  return (
    <section aria-labelledby="projects-title">
      <h2 id="projects-title" className="visually-hidden">
        {format('organization.projects')}
      </h2>
      {organization.projects.length === 0 && !canCreate ? <p className="muted">{format('organization.noProjects')}</p> : null}
      <ul className="card-grid">
        {organization.projects.map((project) => (
          <li key={project.id}>
            <Link className="card-link project-card" to={routePath('viewProject', { organizationID: organization.id, projectID: project.id })}>
              <FolderOpen aria-hidden="true" size={20} className="card-icon" />
              <span className="card-title">{project.name}</span>
              <span className="card-text">{project.description || format('project.noDescription')}</span>
            </Link>
          </li>
        ))}
        {canCreate ? (
          <li>
            <button type="button" className="card-link project-card project-card-new" onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" size={22} className="card-icon" />
              <span className="card-title">{format('project.new.card')}</span>
            </button>
          </li>
        ) : null}
      </ul>
      {canCreate ? <NewProjectDialog organization={organization} open={creating} onOpenChange={setCreating} /> : null}
    </section>
  );
}
