/** The build-time validators: plain code with catalogue messages, no ajv compiler, same verdicts as the server's schemas. */
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import forgotPasswordForm from '../../definitions/forms/forgot-password.ts';
import loginForm from '../../definitions/forms/login.ts';
import questionnaireForm from '../../definitions/forms/questionnaire.ts';
import resetPasswordForm from '../../definitions/forms/reset-password.ts';
import signupForm from '../../definitions/forms/signup.ts';
import { hasMessage } from '../../definitions/messages/format.ts';
import { signupSchema } from '../../definitions/schemas/account.ts';
import { standaloneValidatorSource } from '../../vite-plugin-form-validators.ts';
import { compileForm } from './support/compile-form.ts';

const forms = [loginForm, signupForm, forgotPasswordForm, resetPasswordForm, questionnaireForm];

describe('standalone form validators', () => {
  it.each(forms.map((form) => [form.id, form] as const))('%s compiles to an ES module without ajv, require or eval', (_id, form) => {
    const source = standaloneValidatorSource(form);
    expect(source).toMatch(/export default validate\d+/);
    expect(source).not.toMatch(/\brequire\(/);
    expect(source).not.toMatch(/new Function|\beval\(/);
    expect(source).not.toMatch(/from ["']ajv/);
  });

  it('gives catalogue keys and the keyword parameters for every failure', async () => {
    const validate = await compileForm(signupForm);
    expect(validate({ username: 'ab', email: 'nope', password: '1234567' })).toBe(false);
    const byField = Object.fromEntries(
      (validate.errors ?? []).map((error) => [error.instancePath.slice(1) || error.params.errors?.[0]?.params.missingProperty, error]),
    );
    expect(byField.username?.message).toBe('form.error.minLength');
    expect(byField.username?.params.errors?.[0]?.params).toEqual({ limit: 3 });
    expect(byField.email?.message).toBe('validation.invalidEmail');
    expect(byField.password?.message).toBe('form.error.minLength');
    for (const error of validate.errors ?? []) expect(hasMessage(error.message ?? '')).toBe(true);
  });

  it('names the missing field of a required failure', async () => {
    const validate = await compileForm(loginForm);
    expect(validate({ username: 'someone' })).toBe(false);
    expect(validate.errors).toHaveLength(1);
    expect(validate.errors?.[0]?.message).toBe('form.error.required');
    expect(validate.errors?.[0]?.params.errors?.[0]?.params.missingProperty).toBe('password');
  });

  it('agrees with the server schema (ajv compiled at runtime) on sign-up payloads', async () => {
    const validate = await compileForm(signupForm);
    const server = new Ajv({ allErrors: true });
    addFormats(server);
    const serverValidate = server.compile(signupSchema);
    const samples = [
      { username: 'ana', email: 'ana@example.com', password: '12345678' },
      { username: 'an', email: 'ana@example.com', password: '12345678' },
      { username: '.ana', email: 'ana@example.com', password: '12345678' },
      { username: 'ana', email: 'ana@', password: '12345678' },
      { username: 'ana', email: 'ana@example.com', password: '1234567' },
      { username: 'ana', email: 'ana@example.com', password: '😀😀😀😀😀😀😀😀' },
      { username: 'ana', email: 'ana@example.com', password: '12345678', admin: true },
      { username: 'ana', email: 'ana@example.com' },
    ];
    for (const sample of samples) expect(validate(sample), JSON.stringify(sample)).toBe(serverValidate(sample));
  });

  it('checks the questionnaire choices against the schema enums', async () => {
    const validate = await compileForm(questionnaireForm);
    expect(validate({ role: 'developer', teamSize: '2-10' })).toBe(true);
    expect(validate({ role: 'astronaut', teamSize: '2-10' })).toBe(false);
    expect(validate.errors?.[0]?.message).toBe('form.error.enum');
  });

  it('validates only what the reset form holds (the token comes from the link)', async () => {
    const validate = await compileForm(resetPasswordForm);
    expect(validate({ password: 'long enough' })).toBe(true);
    expect(validate({ password: 'short' })).toBe(false);
  });
});
