/** The catalogue: every message the product names, the login flow's keys, valid ICU. */
import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { allMessages as en } from '../../definitions/messages/all.ts';
import { formatMessage, hasMessage } from '../../definitions/messages/format.ts';
import { loginMessageKeys } from '../../machines/login.ts';

const catalogue: Record<string, string> = en;
const values = new Set(Object.values(catalogue));

/** The platform's messages, word for word. */
const platformMessages = [
  'Insufficient permissions',
  'Cannot complete requested actions',
  'Unknown Error',
  'API Limit Reached',
  'See Plans',
  'Remind me in 5 minutes',
  'Billing Account Status',
  'Update Payment Information',
  'Email account has not been verified. Please verify email to continue',
  'Unknown Error While trying to login',
  'User has been created. Please follow link in the email we just sent you to verify your account.',
  'Email address has been verified',
  'Invite has been accepted',
  'Invitation can not be found',
  'An error occurred loading user, please log back in',
  'Login to verify email address',
  'Password Reset Email Sent',
  'Organization Updated',
  'Organization Deleted',
  'Could not get billing info',
  'Could not retrieve previous transactions',
  'Could not update billing details',
  'Billing Info Updated',
  'Billing Add-Ons Updated',
  'Credit added to organization',
  'Contact request sent. One of our representatives will in touch with you soon',
  'Project Created',
  'Project Deleted',
  'Project could not be deleted',
  'Project name does not match',
  'Token has been updated',
  'Token has been deleted',
  'Webhook created successfully',
  'Unknown error creating webhook',
  'Unknown error updating webhook',
  'User group has been updated',
  'Unknown error updating user group',
  'User has been deleted',
  'Organization name is not correct',
  'Invalid email address',
  'No more seats available',
  'Billing Address must be set before setting up credit card details',
  'Oops!',
];

/** The content messages, word for word. */
const contentMessages = [
  'sorry, there was an error',
  'Item was created!',
  'Item was updated!',
  'Sorry, something is missing',
  'Could not find item',
  'Could not load item',
  'An error occurred while updating item',
  'An error occurred while deleting item',
  'Error with creating item',
  'An error occurred updating users for item',
  'Images Uploaded',
  'Uploading images',
  'An unknown error occurred uploading images',
  'Image deleted',
  'Could not delete image',
  'Unknown Issue',
  'There was an error ordering the items.',
  'Could not update schema order',
  'Collection created',
  'CollectionID already exists',
  'Could not create new collection',
  'Collection updated',
  'Could not update collection',
  'Collection deleted',
  'Field Updated',
  'This collection must have no more than one item to become a single item collection.',
  'Copied to clipboard',
  'Not Set',
];

describe('message catalogue', () => {
  it.each([...platformMessages, ...contentMessages])('has "%s"', (text) => {
    expect(values.has(text)).toBe(true);
  });

  it('formats the messages with a parameter', () => {
    expect(formatMessage('member.removed', { user: 'ana@example.com' })).toBe('ana@example.com removed from organization');
    expect(formatMessage('organization.deleteFailed', { reason: 'none' })).toBe('Organization could not be deleted');
    expect(formatMessage('organization.deleteFailed', { reason: 'it has projects' })).toBe('Organization could not be deleted it has projects');
    expect(formatMessage('collection.deleteFailed', { reason: 'locked' })).toBe('Could not delete collection - locked');
    expect(formatMessage('item.deleteFailedReason', { reason: 'gone' })).toBe('Could not delete item: gone');
    expect(formatMessage('projectUser.deleteFailed', { reason: formatMessage('error.unknown') })).toBe('Could not delete user Unknown Error');
    expect(formatMessage('userGroup.createFailed', { reason: 'taken' })).toBe('Could not create user group taken');
    expect(formatMessage('form.error.minLength', { limit: 1 })).toBe('Use at least 1 character');
  });

  it('has the login flow’s keys with the texts of the brief', () => {
    expect(formatMessage('login.unverified')).toBe('Email account has not been verified. Please verify email to continue');
    expect(formatMessage('login.failed')).toBe('Unknown Error While trying to login');
    expect(formatMessage('login.invalidCredentials')).toBe('The username or password is not correct.');
    expect(formatMessage('login.throttled', { detail: 'Try again in 60 seconds.' })).toBe('Too many sign-in attempts. Try again in 60 seconds.');
    expect(formatMessage('confirm.done')).toBe('Email address has been verified');
    expect(formatMessage('confirm.needsLogin')).toBe('Login to verify email address');
    expect(formatMessage('user.loadFailed')).toBe('An error occurred loading user, please log back in');
    expect(formatMessage('permission.denied.title')).toBe('Insufficient permissions');
    expect(formatMessage('permission.denied.detail')).toBe('Cannot complete requested actions');
    expect(formatMessage('error.unknown')).toBe('Unknown Error');
    for (const key of Object.values(loginMessageKeys)) expect(hasMessage(key), key).toBe(true);
  });

  it('keeps the server’s mail messages', () => {
    for (const key of ['mail.signature', 'mail.confirm.subject', 'mail.confirm.text', 'mail.signupExisting.subject', 'mail.signupExisting.text', 'mail.reset.subject', 'mail.reset.text']) {
      expect(hasMessage(key), key).toBe(true);
    }
  });

  it('holds only valid ICU messages', () => {
    for (const [key, text] of Object.entries(catalogue)) expect(() => new IntlMessageFormat(text, 'en', undefined, { ignoreTag: true }), key).not.toThrow();
  });

  it('has every message key the definitions name', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
      );
    const keyLike = /'((?:form|login|signup|forgotPassword|resetPassword|questionnaire|route|apiLimit|validation|theme|nav)\.[\w.+-]+)'/g;
    const missing: string[] = [];
    for (const file of files(path.resolve('definitions'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(keyLike)) if (!hasMessage(match[1]!)) missing.push(`${path.basename(file)}: ${match[1]}`);
    }
    expect(missing).toEqual([]);
  });
});
