/** Request schemas the organization, member and project routes share. */
import { Type } from '@sinclair/typebox';

export const Email = Type.String({ format: 'email', maxLength: 254 });
/** A name of at most `max` characters with at least one that is not a space. */
export const Name = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });
