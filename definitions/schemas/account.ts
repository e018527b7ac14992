/**
 * JSON Schemas of the account payloads, shared by the server (route validation) and the console
 * (form validation). Limits here are product decisions: change them here and both sides follow.
 */

export const USERNAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]*$';

export const accountLimits = {
  usernameMin: 3,
  usernameMax: 40,
  emailMax: 254,
  passwordMin: 8,
  /** argon2 is slow by design; an upper bound keeps a huge password from being a denial of service. */
  passwordMax: 256,
} as const;

export const usernameSchema = {
  type: 'string',
  minLength: accountLimits.usernameMin,
  maxLength: accountLimits.usernameMax,
  pattern: USERNAME_PATTERN,
} as const;

export const emailSchema = { type: 'string', format: 'email', minLength: 3, maxLength: accountLimits.emailMax } as const;

export const passwordSchema = { type: 'string', minLength: accountLimits.passwordMin, maxLength: accountLimits.passwordMax } as const;

export const signupSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password', 'email'],
  properties: { username: usernameSchema, password: passwordSchema, email: emailSchema },
} as const;

/**
 * The console's sign-in form: an account name (username or e-mail) and a password. No length rule
 * beyond the token endpoint's bounds, so accounts made under older rules can still sign in.
 */
export const loginSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password'],
  properties: {
    username: { type: 'string', minLength: 1, maxLength: accountLimits.emailMax },
    password: { type: 'string', minLength: 1, maxLength: accountLimits.passwordMax },
  },
} as const;

export const resetPasswordEmailSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { email: { type: 'string', minLength: 1, maxLength: accountLimits.emailMax } },
} as const;

export const resetPasswordSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['password', 'token'],
  properties: { password: passwordSchema, token: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

export const questionnaireOptions = {
  role: ['developer', 'content-editor', 'product-manager', 'founder', 'student', 'other'],
  teamSize: ['1', '2-10', '11-50', '51-200', '201+'],
} as const;

export const questionnaireSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['role', 'teamSize'],
  properties: {
    role: { type: 'string', enum: questionnaireOptions.role },
    teamSize: { type: 'string', enum: questionnaireOptions.teamSize },
    useCase: { type: 'string', maxLength: 1000 },
    heardFrom: { type: 'string', maxLength: 200 },
  },
} as const;

export interface SignupPayload {
  username: string;
  password: string;
  email: string;
}

export interface QuestionnairePayload {
  role: (typeof questionnaireOptions.role)[number];
  teamSize: (typeof questionnaireOptions.teamSize)[number];
  useCase?: string;
  heardFrom?: string;
}

/** The signed-in user as `GET /api/user/me` answers it (definitions/schemas/user.ts). */
export type { PublicUser } from './user.ts';
