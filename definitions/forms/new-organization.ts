/** New organization: its name (the creator becomes its administrator). */
import { organizationNameSchema } from '../schemas/platform.ts';
import type { FormDefinition } from './types.ts';

const newOrganizationForm: FormDefinition = {
  id: 'newOrganization',
  title: 'newOrganization.title',
  schema: organizationNameSchema,
  fields: [{ name: 'name', widget: 'text', inputType: 'text', label: 'form.organization.name', autoComplete: 'organization', trim: true }],
  submit: 'newOrganization.submit',
  submitting: 'newOrganization.submitting',
  submitRequires: ['name'],
};

export default newOrganizationForm;
