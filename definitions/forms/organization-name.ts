/** Organization settings, General: the name (admins only). */
import { organizationNameSchema } from '../schemas/platform.ts';
import type { FormDefinition } from './types.ts';

const organizationNameForm: FormDefinition = {
  id: 'organizationName',
  title: 'organization.rename.title',
  schema: organizationNameSchema,
  fields: [{ name: 'name', widget: 'text', inputType: 'text', label: 'form.organization.name', autoComplete: 'organization', trim: true }],
  submit: 'organization.rename.submit',
  submitting: 'organization.rename.submitting',
  submitRequires: ['name'],
};

export default organizationNameForm;
