/**
 * New Project: name (trimmed; empty disables Create), description, and "Use a
 * template?" with the organization's projects to choose from.
 */
import { newProjectSchema } from '../schemas/platform.ts';
import type { FormDefinition } from './types.ts';

const newProjectForm: FormDefinition = {
  id: 'newProject',
  title: 'project.new.title',
  schema: newProjectSchema,
  fields: [
    { name: 'name', widget: 'text', inputType: 'text', label: 'form.project.name', trim: true },
    { name: 'description', widget: 'textarea', label: 'form.project.description', rows: 3, trim: true },
    { name: 'useTemplate', widget: 'switch', label: 'form.project.useTemplate', help: 'form.project.useTemplateHelp' },
    { name: 'templateID', widget: 'select', label: 'form.project.template', dynamicOptions: true, visibleWhen: { field: 'useTemplate', equals: true } },
  ],
  submit: 'project.new.submit',
  submitting: 'project.new.submitting',
  submitRequires: ['name'],
};

export default newProjectForm;
