/**
 * The project's user groups as the API token form offers them: id and name. Empty
 * while loading or when the project has none; the form then shows the hint to create one first.
 */
import { useMemo } from 'react';
import { useUserGroups } from '../../api/project-users-queries.ts';
import { useProjectIds } from '../project/project-context.ts';

export function useUserGroupOptions(): { id: string; name: string }[] {
  const scope = useProjectIds();
  const { data } = useUserGroups(scope);
  return useMemo(() => (data ?? []).map((group) => ({ id: group.groupID, name: group.name })), [data]);
}
