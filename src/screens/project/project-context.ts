/** What the project's screens share: ids from the route, the project, and where a section leads. */
import { useCallback } from 'react';
import { useMatches, useNavigate, useParams } from 'react-router';
import { activeSection, sectionTarget, type ProjectSection } from '../../../definitions/project-sections.ts';
import { routePath } from '../../../definitions/route-path.ts';
import { myActions, myPermissions } from '../../../definitions/membership.ts';
import { useOrganization, useProject } from '../../api/platform-queries.ts';
import { useMe } from '../../api/queries.ts';

export function useProjectIds() {
  const params = useParams();
  return { organizationID: params.organizationID ?? '', projectID: params.projectID ?? '' };
}

/** A project route's path with the project's own parameters filled in. */
export function useProjectPath() {
  const { organizationID, projectID } = useProjectIds();
  return useCallback(
    (route: string, params: Record<string, string> = {}, query: Record<string, string | undefined> = {}) =>
      routePath(route, { organizationID, projectID, ...params }, query),
    [organizationID, projectID],
  );
}

/** The matched routes' names, outermost first. */
export function useRouteNames(): string[] {
  return useMatches().map((match) => match.id);
}

export function useActiveSection(): ProjectSection {
  return activeSection(useRouteNames());
}

/** Goes where choosing a section leads; stays when the rule says so. */
export function useGoToSection() {
  const navigate = useNavigate();
  const routeNames = useRouteNames();
  const path = useProjectPath();
  const { organizationID, projectID } = useProjectIds();
  const { data: project } = useProject(organizationID, projectID);
  return (section: ProjectSection) => {
    const target = sectionTarget(section, { routeNames, collections: project?.collections ?? [], webhooks: project?.webhooks ?? [] });
    if (target) navigate(path(target.route, target.params));
  };
}

/** What the signed-in user may do in the project's organization (nothing until both are loaded). */
export function useProjectActions() {
  const { organizationID } = useProjectIds();
  const { data: organization } = useOrganization(organizationID);
  const { data: me } = useMe();
  return organization && me ? myActions(organization.users, me) : { admin: false, read: true, create: false, update: false, delete: false };
}

/** The signed-in user's flags in the project's organization (none until loaded). */
export function useMyPermissions() {
  const { organizationID } = useProjectIds();
  const { data: organization } = useOrganization(organizationID);
  const { data: me } = useMe();
  return organization && me ? myPermissions(organization.users, me) : null;
}
