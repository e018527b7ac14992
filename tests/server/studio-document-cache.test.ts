/**
 * The generated documents' cache is bounded in size, every project together (docs/studio.md "The
 * generated document"): each set of rights makes its own document, so an organization minting
 * tokens of different rights could otherwise fill the server's memory. The least recently used
 * documents go first, and one that went is built again when asked for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studioDocuments } from '../../server/studio/documents.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';
import { bearer } from './support/flows.ts';

const slugs = ['alpha', 'beta', 'gamma', 'delta'];

describe.each(databaseKinds)('Studio: the document cache’s bound on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  const tokens: string[] = [];

  const documentOf = async (token: string) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/public/openapi.json', headers: { ...bearer(token), 'accept-version': 'v1' } });
    expect(response.statusCode, response.body).toBe(200);
    return { text: response.body, paths: Object.keys(json<{ paths: Record<string, unknown> }>(response).paths) };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    for (const slug of slugs) await createCollection(f, { id: slug, name: slug, schema: [{ name: 'Text', slug: 'text', type: 1 }] });
    // One token per collection: each a different set of rights, so each its own document.
    for (const slug of slugs) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/apiTokens',
        headers: bearer(f.access),
        payload: { name: slug, projectID: f.project, organizationID: f.org, roles: [{ collection: slug, read: true }] },
      });
      expect(response.statusCode, response.body).toBe(201);
      tokens.push(json(response).jwtToken);
    }
  });
  afterAll(() => t?.close());

  it('keeps at most its bound of characters, drops the least recently used first, and builds a dropped one again', async () => {
    const documents = studioDocuments(t.app);
    const first = await documentOf(tokens[0]!);
    // Room for about two documents of this project.
    documents.maxChars = Math.floor(first.text.length * 2.5);
    const answers = [first];
    for (const token of tokens.slice(1)) {
      answers.push(await documentOf(token));
      expect(documents.chars).toBeLessThanOrEqual(documents.maxChars);
    }
    // Each token's document is its own collection's.
    answers.forEach((answer, i) => expect(answer.paths.filter((p) => p.startsWith('/collection/')).every((p) => p.startsWith(`/collection/${slugs[i]}/`))).toBe(true));

    // The newest is served from the cache; the oldest was dropped and is built again, the same.
    const { builds, hits } = documents;
    expect((await documentOf(tokens[3]!)).text).toBe(answers[3]!.text);
    expect(documents.hits).toBe(hits + 1);
    expect((await documentOf(tokens[0]!)).text).toBe(first.text);
    expect(documents.builds).toBe(builds + 1);
    expect(documents.chars).toBeLessThanOrEqual(documents.maxChars);
  });
});
