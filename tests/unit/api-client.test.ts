// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthApi } from '../../src/api/auth.ts';
import { createApiClient, isSignInCall, type ApiClient, type ApiEvent } from '../../src/api/client.ts';
import { ApiError } from '../../src/api/errors.ts';
import { createSession, TOKENS_STORAGE_KEY } from '../../src/api/session.ts';
import { deferred } from './support/deferred.ts';
import { fakeFetch, json, problem, tokenAnswer, type Handler } from './support/fake-fetch.ts';

const clients: ApiClient[] = [];

function storeTokens(n: number) {
  localStorage.setItem(TOKENS_STORAGE_KEY, JSON.stringify({ accessToken: `access-${n}`, refreshToken: `refresh-${n}` }));
}

function storedTokens() {
  const raw = localStorage.getItem(TOKENS_STORAGE_KEY);
  return raw === null ? null : (JSON.parse(raw) as unknown);
}

function start(handler: Handler) {
  const fake = fakeFetch(handler);
  const client = createApiClient({ session: createSession(), prefixUrl: 'http://localhost/', fetch: fake.fetch });
  clients.push(client);
  const events: ApiEvent[] = [];
  client.subscribe((event) => events.push(event));
  return { client, fake, events };
}

/** A server where only `valid` access tokens pass and the refresh grant hands out pair n+1. */
function server(options: { valid: () => string; refresh?: (body: URLSearchParams) => Response | Promise<Response> }): Handler {
  return async (request, sent) => {
    if (sent.url === '/auth/token') {
      const body = new URLSearchParams(sent.body);
      return options.refresh ? options.refresh(body) : tokenAnswer(2);
    }
    if (sent.authorization !== `Bearer ${options.valid()}`) return problem(401, 'token_expired', 'The access token has expired.');
    return json(200, { url: sent.url, method: request.method, body: sent.body });
  };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
});

describe('api client: bearer and refresh', () => {
  it('sends the stored access token as bearer', async () => {
    storeTokens(1);
    const { client, fake } = start(server({ valid: () => 'access-1' }));
    expect(await client.json('api/user/me')).toMatchObject({ url: '/api/user/me' });
    expect(fake.sent[0]!.authorization).toBe('Bearer access-1');
  });

  it('makes exactly one refresh call for concurrent 401s and replays every call with the new token', async () => {
    storeTokens(1);
    const gate = deferred<void>();
    const { client, fake } = start(
      server({
        valid: () => 'access-2',
        refresh: async () => {
          await gate.promise;
          return tokenAnswer(2);
        },
      }),
    );
    const first = ['api/a', 'api/b', 'api/c'].map((path) => client.json(path));
    await vi.waitFor(() => expect(fake.to('/auth/token')).toHaveLength(1));
    await vi.waitFor(() => expect(fake.sent.filter((entry) => entry.authorization === 'Bearer access-1')).toHaveLength(3));
    // A call that starts while the refresh is under way fails with the old token and waits too.
    const late = client.json('api/d');
    await vi.waitFor(() => expect(fake.to('/api/d')).toHaveLength(1));
    gate.resolve();

    const answers = await Promise.all([...first, late]);
    expect(answers.map((answer) => (answer as { url: string }).url)).toEqual(['/api/a', '/api/b', '/api/c', '/api/d']);
    expect(fake.to('/auth/token')).toHaveLength(1);
    for (const path of ['/api/a', '/api/b', '/api/c', '/api/d']) {
      expect(fake.to(path).map((entry) => entry.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
    }
    expect(storedTokens()).toEqual({ accessToken: 'access-2', refreshToken: 'refresh-2' });
  });

  it('sends the refresh grant form-encoded, without a bearer', async () => {
    storeTokens(1);
    const { client, fake } = start(server({ valid: () => 'access-2' }));
    await client.json('api/a');
    const [refresh] = fake.to('/auth/token');
    expect(refresh!.method).toBe('POST');
    expect(refresh!.authorization).toBeNull();
    expect(refresh!.contentType).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(refresh!.body))).toEqual({ grant_type: 'refresh_token', refresh_token: 'refresh-1' });
  });

  it('replays a write with its body intact', async () => {
    storeTokens(1);
    const { client, fake } = start(server({ valid: () => 'access-2' }));
    const answer = await client.json<{ body: string; method: string }>('api/items', { method: 'post', json: { name: 'Pantry' } });
    expect(answer).toMatchObject({ method: 'POST', body: '{"name":"Pantry"}' });
    expect(fake.to('/api/items').map((entry) => entry.body)).toEqual(['{"name":"Pantry"}', '{"name":"Pantry"}']);
  });

  it('replays only once: a second 401 stands and no second refresh is made', async () => {
    storeTokens(1);
    const { client, fake } = start(server({ valid: () => 'never-valid' }));
    const error = await rejection(client.json('api/a'));
    expect(error.status).toBe(401);
    expect(fake.to('/api/a')).toHaveLength(2);
    expect(fake.to('/auth/token')).toHaveLength(1);
  });

  it('ends the session when the refresh call answers 401: sessionEnded once, tokens cleared, calls fail with 401', async () => {
    storeTokens(1);
    const { client, events } = start(
      server({ valid: () => 'access-2', refresh: () => problem(401, 'invalid_refresh_token', 'Sign in again.', { 'www-authenticate': 'Bearer' }) }),
    );
    const errors = await Promise.all([rejection(client.json('api/a')), rejection(client.json('api/b'))]);
    expect(errors.map((error) => [error.status, error.code])).toEqual([
      [401, 'token_expired'],
      [401, 'token_expired'],
    ]);
    expect(events).toEqual([{ type: 'sessionEnded' }]);
    expect(storedTokens()).toBeNull();
    expect(client.session.read()).toBeNull();
  });

  it('keeps the session when the refresh call fails on the network', async () => {
    storeTokens(1);
    const { client, events } = start(
      server({
        valid: () => 'access-2',
        refresh: () => {
          throw new TypeError('Failed to fetch');
        },
      }),
    );
    const error = await rejection(client.json('api/a'));
    expect(error.status).toBe(401);
    expect(events).toEqual([]);
    expect(storedTokens()).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1' });
  });

  it('picks up a pair another tab refreshed instead of refreshing again', async () => {
    storeTokens(1);
    const hold = deferred<void>();
    const { client, fake } = start(async (request, sent) => {
      if (sent.authorization === 'Bearer access-1') {
        await hold.promise;
        return problem(401, 'invalid_token');
      }
      return server({ valid: () => 'access-2' })(request, sent);
    });
    const call = client.json('api/a');
    await vi.waitFor(() => expect(fake.sent).toHaveLength(1));

    // The other tab writes the refreshed pair; this tab hears it as a storage event.
    storeTokens(2);
    window.dispatchEvent(new StorageEvent('storage', { key: TOKENS_STORAGE_KEY, newValue: localStorage.getItem(TOKENS_STORAGE_KEY), storageArea: localStorage }));
    hold.resolve();

    expect(await call).toMatchObject({ url: '/api/a' });
    expect(fake.to('/auth/token')).toHaveLength(0);
    expect(fake.to('/api/a').map((entry) => entry.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
  });

  it('neither sends a bearer nor refreshes for anonymous calls', async () => {
    storeTokens(1);
    const { client, fake } = start(() => problem(401, 'missing_token'));
    const error = await rejection(client.json('api/config', { context: { anonymous: true } }));
    expect(error.status).toBe(401);
    expect(fake.sent.map((entry) => [entry.url, entry.authorization])).toEqual([['/api/config', null]]);
  });

  it('does not refresh a 401 of a call made without any token', async () => {
    const { client, fake, events } = start(() => problem(401, 'missing_token'));
    await rejection(client.json('api/user/me'));
    expect(fake.sent.map((entry) => entry.url)).toEqual(['/api/user/me']);
    expect(fake.sent[0]!.authorization).toBeNull();
    expect(events).toEqual([]);
  });
});

describe('api client: app-level events', () => {
  it('reports a 403 as forbidden with method and url, and rejects with the problem', async () => {
    storeTokens(1);
    const { client, events } = start(() => problem(403, 'not_a_member', 'You are not a member of this organization.'));
    const error = await rejection(client.json('api/organization/o1', { method: 'put', json: {}, searchParams: { view: 'plans' } }));
    expect([error.status, error.code, error.detail]).toEqual([403, 'not_a_member', 'You are not a member of this organization.']);
    expect(events).toEqual([{ type: 'forbidden', method: 'PUT', url: '/api/organization/o1?view=plans' }]);
  });

  it('reports a 429 of an ordinary call as rateLimited and does not retry it', async () => {
    storeTokens(1);
    const { client, events, fake } = start(() => problem(429, 'rate_limited', 'Slow down.', { 'retry-after': '1' }));
    const error = await rejection(client.json('api/organizations'));
    expect(error.status).toBe(429);
    expect(events).toEqual([{ type: 'rateLimited', method: 'GET', url: '/api/organizations', status: 429, warning: null }]);
    expect(fake.sent).toHaveLength(1);
  });

  it('keeps a 429 of sign-in out of the API-limit dialog: the form shows its detail', async () => {
    const { client, events } = start((_request, sent) =>
      sent.url === '/api/config'
        ? json(200, { consoleClient: { id: 'larder-console', secret: 'larder-console' }, googleClientId: null, devMailbox: true })
        : problem(429, 'rate_limited', 'Too many attempts. Try again in 60 seconds.'),
    );
    const auth = createAuthApi(client);
    const error = await rejection(auth.passwordGrant('ada', 'pw'));
    expect([error.status, error.detail]).toEqual([429, 'Too many attempts. Try again in 60 seconds.']);
    await rejection(auth.signUp({ username: 'ada', password: 'long enough', email: 'ada@example.com' }));
    await rejection(auth.requestResetMail('ada@example.com'));
    expect(events).toEqual([]);
  });

  it('reports an answer carrying a warning header as rateLimited, and the call still succeeds', async () => {
    storeTokens(1);
    const { client, events } = start(() => json(200, { ok: true }, { warning: '199 - "API calls at 90% of the plan"' }));
    expect(await client.json('api/organization/o1')).toEqual({ ok: true });
    expect(events).toEqual([
      { type: 'rateLimited', method: 'GET', url: '/api/organization/o1', status: 200, warning: '199 - "API calls at 90% of the plan"' },
    ]);
  });

  it('stops telling a listener that unsubscribed', async () => {
    storeTokens(1);
    const { client } = start(() => problem(403, 'forbidden'));
    const listener = vi.fn();
    const unsubscribe = client.subscribe(listener);
    unsubscribe();
    await rejection(client.json('api/x'));
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('api client: answers', () => {
  it('resolves undefined for 204 and rejects non-JSON errors with a synthetic problem', async () => {
    storeTokens(1);
    const { client } = start((_request, sent) =>
      sent.url === '/api/empty' ? new Response(null, { status: 204 }) : new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }),
    );
    expect(await client.json('api/empty')).toBeUndefined();
    const error = await rejection(client.json('api/broken'));
    expect([error.status, error.code, error.detail, error.problem]).toEqual([502, 'http_error', 'Bad Gateway', null]);
  });

  it('rejects a network failure with status 0', async () => {
    const { client } = start(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await rejection(client.json('api/x'));
    expect([error.status, error.code]).toEqual([0, 'network_error']);
  });
});

describe('isSignInCall', () => {
  it('holds for the auth service and sign-up only', () => {
    expect(isSignInCall('POST', '/auth/token')).toBe(true);
    expect(isSignInCall('POST', '/auth/googleToken')).toBe(true);
    expect(isSignInCall('POST', '/auth/resetPasswordEmail')).toBe(true);
    expect(isSignInCall('post', '/api/user')).toBe(true);
    expect(isSignInCall('GET', '/api/user/me')).toBe(false);
    expect(isSignInCall('GET', '/api/organizations')).toBe(false);
    expect(isSignInCall('PUT', '/api/user')).toBe(false);
  });
});
