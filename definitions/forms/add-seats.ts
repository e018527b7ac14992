/** Add seats: a whole number above 0. */
import { addSeatsSchema } from '../schemas/platform.ts';
import type { FormDefinition } from './types.ts';

const addSeatsForm: FormDefinition = {
  id: 'addSeats',
  title: 'seats.title',
  schema: addSeatsSchema,
  fields: [{ name: 'numberOfSeats', widget: 'number', label: 'form.seats.count' }],
  errorMessages: {
    numberOfSeats: { minimum: 'seats.invalid', type: 'seats.invalid', required: 'seats.invalid' },
  },
  submit: 'seats.submit',
  submitting: 'seats.submitting',
};

export default addSeatsForm;
