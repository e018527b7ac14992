/**
 * JSON Schemas of the organization and project payloads the console's forms send. The bounds are
 * the server's (definitions/platform.ts), so a form refuses what the server would refuse.
 */
import { platform } from '../platform.ts';
import { emailSchema } from './account.ts';

/** A name people type: at least one character that is not a space. */
const nameSchema = (max: number) => ({ type: 'string', minLength: 1, maxLength: max, pattern: '\\S' }) as const;

export const organizationNameSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: nameSchema(platform.limits.organizationNameMax) },
} as const;

/** New Project: the template switch and choice are the form's; the payload is name and description. */
export const newProjectSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: nameSchema(platform.limits.projectNameMax),
    description: { type: 'string', maxLength: platform.limits.projectDescriptionMax },
    useTemplate: { type: 'boolean' },
    templateID: { type: 'string', pattern: '^[0-9a-f]{24}$' },
  },
} as const;

export const projectGeneralSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: nameSchema(platform.limits.projectNameMax),
    description: { type: 'string', maxLength: platform.limits.projectDescriptionMax },
  },
} as const;

/** One row of the invite dialog. */
export const inviteEmailSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { email: emailSchema },
} as const;

/** Seats to add: a whole number above 0, at most what one request may add. */
export const addSeatsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['numberOfSeats'],
  properties: { numberOfSeats: { type: 'integer', minimum: 1, maximum: platform.limits.seatsPerRequest } },
} as const;
