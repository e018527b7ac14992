/** Project Settings, General: the project's name and description. */
import { projectGeneralSchema } from '../schemas/platform.ts';
import type { FormDefinition } from './types.ts';

const projectGeneralForm: FormDefinition = {
  id: 'projectGeneral',
  title: 'projectSettings.general',
  schema: projectGeneralSchema,
  fields: [
    { name: 'name', widget: 'text', inputType: 'text', label: 'form.project.name', trim: true },
    { name: 'description', widget: 'textarea', label: 'form.project.description', rows: 3, trim: true },
  ],
  submit: 'projectSettings.save',
  submitting: 'projectSettings.saving',
  submitRequires: ['name'],
};

export default projectGeneralForm;
