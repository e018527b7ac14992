/** The project the collection screens work in, as the content calls take it. */
import { useMemo } from 'react';
import type { ProjectScope } from '../../api/content.ts';
import { useProjectIds } from '../project/project-context.ts';

export function useProjectScope(): ProjectScope {
  const { organizationID, projectID } = useProjectIds();
  return useMemo(() => ({ organizationID, projectID }), [organizationID, projectID]);
}
