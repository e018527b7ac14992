/** Wire shapes of a project's users, shared by the console routes that list, read and create them. */
import { Type } from '@sinclair/typebox';
import { Id } from '../content/route-schemas.ts';
import { ProjectUser } from '../../definitions/schemas/project-user.ts';

export const ProjectParams = Type.Object({ org: Id, proj: Id });
export { ProjectUser };
