/** The generic form renderer: any definition, labels from the catalogue, precompiled validation, server errors. */
import '@testing-library/jest-dom/vitest';
import { describe, expect, it, vi, afterEach } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import loginForm from '../../definitions/forms/login.ts';
import questionnaireForm from '../../definitions/forms/questionnaire.ts';
import signupForm from '../../definitions/forms/signup.ts';
import type { FormDefinition } from '../../definitions/forms/types.ts';
import { createFormatter } from '../../definitions/messages/create-formatter.ts';
import en from '../../definitions/messages/en.json' with { type: 'json' };
import { FormRenderer } from '../../renderers/forms/FormRenderer.tsx';
import { MessagesContext } from '../../renderers/messages/messages-context.ts';
import { compileForm } from './support/compile-form.ts';

afterEach(cleanup);

describe('FormRenderer', () => {
  it('draws every field of the definition with its catalogue label, and the submit button', async () => {
    render(<FormRenderer definition={signupForm} validate={await compileForm(signupForm)} onSubmit={() => {}} />);
    expect(screen.getByRole('form', { name: 'Create your Larder account' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Create your Larder account' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('E-mail address')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 8 characters.');
    expect(screen.getByRole('button', { name: 'Create account' })).toBeInTheDocument();
  });

  it('validates with the standalone validator and shows catalogue messages with their parameters', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<FormRenderer definition={signupForm} validate={await compileForm(signupForm)} onSubmit={onSubmit} />);
    await user.type(screen.getByLabelText('Username'), 'ab');
    await user.type(screen.getByLabelText('E-mail address'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription(/Use at least 3 characters/);
    expect(screen.getByLabelText('E-mail address')).toHaveAccessibleDescription('Invalid email address');
    // Empty counts as absent: "required", not "too short".
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/This field is required/);
    // The first invalid field takes the focus.
    expect(screen.getByLabelText('Username')).toHaveFocus();
  });

  it('hands the valid payload over, leaving empty optional fields out', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<FormRenderer definition={questionnaireForm} validate={await compileForm(questionnaireForm)} onSubmit={onSubmit} />);
    await user.selectOptions(screen.getByLabelText('What describes you best?'), 'Founder');
    await user.selectOptions(screen.getByLabelText('How large is your team?'), 'Just me');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onSubmit).toHaveBeenCalledWith({ role: 'founder', teamSize: '1' });
  });

  it('keeps what was typed when the server answers an error, and shows its message', async () => {
    const user = userEvent.setup();
    const validate = await compileForm(loginForm);
    function Screen() {
      const [error, setError] = useState<string | null>(null);
      return (
        <FormRenderer
          definition={loginForm}
          validate={validate}
          error={error}
          onSubmit={async () => {
            await Promise.resolve();
            setError('The username or password is not correct.');
          }}
        />
      );
    }
    render(<Screen />);
    await user.type(screen.getByLabelText('Username or e-mail'), 'ana');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The username or password is not correct.');
    expect(screen.getByLabelText('Username or e-mail')).toHaveValue('ana');
    expect(screen.getByLabelText('Password')).toHaveValue('wrong');
  });

  it('shows the server’s message next to the field it names', async () => {
    render(
      <FormRenderer
        definition={signupForm}
        validate={await compileForm(signupForm)}
        fieldErrors={{ username: 'This username is taken. Choose another one.' }}
        onSubmit={() => {}}
      />,
    );
    expect(await screen.findByText('This username is taken. Choose another one.')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
  });

  it('says it is busy and ignores another submit while busy', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<FormRenderer definition={loginForm} validate={await compileForm(loginForm)} busy onSubmit={onSubmit} />);
    await user.type(screen.getByLabelText('Username or e-mail'), 'ana');
    await user.type(screen.getByLabelText('Password'), 'secret');
    const button = screen.getByRole('button', { name: 'Signing in…' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.click(button);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('changes with the definition and the catalogue alone: a new label and a new field, no code', async () => {
    // What an edit of en.json and of definitions/forms/login.ts would give.
    const catalogue = { ...en, 'form.login.username': 'Account name', 'form.login.otp': 'One-time code' };
    const definition: FormDefinition = {
      ...loginForm,
      schema: {
        ...loginForm.schema,
        required: [...(loginForm.schema.required ?? []), 'otp'],
        properties: { ...loginForm.schema.properties, otp: { type: 'string', minLength: 6, maxLength: 6 } },
      },
      fields: [...loginForm.fields, { name: 'otp', widget: 'text', inputType: 'text', label: 'form.login.otp' as never, autoComplete: 'one-time-code' }],
    };
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(
      <MessagesContext value={createFormatter<string>(catalogue) as never}>
        <FormRenderer definition={definition} validate={await compileForm(definition)} onSubmit={onSubmit} />
      </MessagesContext>,
    );
    expect(screen.getByLabelText('Account name')).toBeInTheDocument();
    expect(screen.queryByLabelText('Username or e-mail')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Account name'), 'ana');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.type(screen.getByLabelText('One-time code'), '123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('One-time code')).toHaveAccessibleDescription('Use at least 6 characters');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('One-time code'), '456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSubmit).toHaveBeenCalledWith({ username: 'ana', password: 'secret', otp: '123456' });
  });
});
