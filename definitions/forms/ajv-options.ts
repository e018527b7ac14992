/**
 * Options of the ajv instance that compiles form schemas into standalone validators at build time
 * (and in tests). Kept here so the build and the tests compile alike.
 */
export const formAjvOptions = {
  // ajv-errors needs every error to pick the message of each field.
  allErrors: true,
  strict: true,
} as const;
