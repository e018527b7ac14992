/**
 * The `?validator` modules the build makes, made the same way for the tests (the test runner has
 * no build plugin). Use inside `vi.mock(…?validator, () => validatorOf('name'))`.
 */
import { compileForm } from '../../renderers/support/compile-form.ts';

export async function validatorOf(name: string) {
  const module = (await import(`../../../definitions/forms/${name}.ts`)) as { default: Parameters<typeof compileForm>[0] };
  return { default: await compileForm(module.default) };
}
