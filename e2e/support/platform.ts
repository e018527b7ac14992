/** Organizations and projects for the browser tests, made over HTTP where the UI is not what a test checks. */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { passwordGrant, type Account } from './accounts.ts';

export interface Made {
  organizationID: string;
  projectID: string;
  token: string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Signs in over the API and makes an organization with one project. */
export async function organizationWithProject(request: APIRequestContext, account: Account, names: { organization: string; project: string }): Promise<Made> {
  const token = await passwordGrant(request, account);
  const organization = await request.post('/api/organization', { headers: bearer(token), data: { name: names.organization } });
  expect(organization.status()).toBe(201);
  const organizationID = ((await organization.json()) as { id: string }).id;
  const project = await request.post(`/api/organization/${organizationID}/project`, { headers: bearer(token), data: { name: names.project, description: 'Made by the test' } });
  expect(project.status()).toBe(201);
  const projectID = ((await project.json()) as { id: string }).id;
  return { organizationID, projectID, token };
}

/** The access token the console keeps for the signed-in user. */
export async function consoleToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem('larder.tokens'));
  if (!raw) throw new Error('not signed in');
  return (JSON.parse(raw) as { accessToken: string }).accessToken;
}

/** Mints a project API token over the API (the rights given, and nothing else) and answers its secret. */
export async function mintApiToken(request: APIRequestContext, made: Made, rights: Record<string, unknown> = { powerRead: true }, name = 'App'): Promise<string> {
  const token = await request.post('/api/apiTokens', { headers: bearer(made.token), data: { name, organizationID: made.organizationID, projectID: made.projectID, ...rights } });
  expect(token.status(), await token.text()).toBe(201);
  return ((await token.json()) as { jwtToken: string }).jwtToken;
}

export { bearer };
