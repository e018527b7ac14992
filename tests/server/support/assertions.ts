/** Assertions and small helpers the server suites share. */
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { json } from './test-app.ts';

/** Asserts an RFC 9457 problem body with the given status (and code) and returns it. */
export function expectProblem(response: LightMyRequestResponse, status: number, code?: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = json<{ type: string; title: string; status: number; detail: string; code: string }>(response);
  expect(body).toMatchObject({
    type: expect.stringMatching(/^https:\/\/larder\.dev\/problems\//),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code: code ?? expect.any(String),
  });
  expect(body.type).toBe(`https://larder.dev/problems/${body.code}`);
  return body;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await sleep(20);
  }
}

/** The form encoding of a list of pairs (repeated keys allowed). */
export const form = (pairs: [string, string][]) => new URLSearchParams(pairs).toString();

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
