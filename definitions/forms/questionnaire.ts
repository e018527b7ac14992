/** The first-time questionnaire. Its choices are the schema's enums, each with a catalogue label. */
import type { MessageKey } from '../messages/format.ts';
import { questionnaireOptions, questionnaireSchema } from '../schemas/account.ts';
import type { FormDefinition } from './types.ts';

const choices = (group: keyof typeof questionnaireOptions) =>
  questionnaireOptions[group].map((value) => ({ value, label: `questionnaire.${group}.${value}` as MessageKey }));

const questionnaireForm: FormDefinition = {
  id: 'questionnaire',
  title: 'questionnaire.title',
  schema: questionnaireSchema,
  fields: [
    { name: 'role', widget: 'select', label: 'form.questionnaire.role', placeholder: 'form.choose', options: choices('role') },
    { name: 'teamSize', widget: 'select', label: 'form.questionnaire.teamSize', placeholder: 'form.choose', options: choices('teamSize') },
    { name: 'useCase', widget: 'textarea', label: 'form.questionnaire.useCase', rows: 4 },
    { name: 'heardFrom', widget: 'text', inputType: 'text', label: 'form.questionnaire.heardFrom' },
  ],
  errorMessages: {
    role: { enum: 'form.error.enum' },
    teamSize: { enum: 'form.error.enum' },
  },
  submit: 'questionnaire.submit',
  submitting: 'questionnaire.submitting',
};

export default questionnaireForm;
