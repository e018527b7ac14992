/** `import validate from './definitions/forms/x.ts?validator'`: compiled by the form-validators Vite plugin. */
declare module '*?validator' {
  import type { StandaloneValidate } from './standalone-validator.ts';
  const validate: StandaloneValidate;
  export default validate;
}
