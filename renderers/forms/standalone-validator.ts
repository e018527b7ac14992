/** The shape of a validator compiled by ajv's standalone code (see vite-plugin-form-validators.ts). */
export interface ValidationError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown> & { errors?: ValidationError[]; missingProperty?: string };
}

export interface StandaloneValidate {
  (data: unknown): boolean;
  errors?: ValidationError[] | null;
}
