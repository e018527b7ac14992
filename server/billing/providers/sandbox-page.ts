/**
 * The sandbox provider's hosted card page (docs/billing.md "Card providers"; what it keeps and its
 * policy: docs/security.md "Card data"): `GET /billing/providers/sandbox/pay/:sessionID` serves a small form,
 * `POST` takes it. The session id in the address is the credential; no bearer token.
 *
 * - Its own Content-Security-Policy: nothing may load (`default-src 'none'`), its one style block
 *   and its one script are allowed by hash, the form posts only to itself, and only Larder's own
 *   pages may frame it (the console shows it in the Setup Credit Card dialog).
 * - The number is checked (digits, Luhn, a published test number) and only its last four digits,
 *   brand and behaviour are kept. It is never written to the database or the log, and never sent
 *   back: a refused form comes back with the number and CVC fields empty.
 * - After a saved card the page sends the whole window (the console, not the frame) to the
 *   provider's return address, `/billingComplete`, by a hashed script, with a link as fallback.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CardSessionRow, CardSessionService } from '../cards.ts';
import { cardBrand, luhnValid, sandboxPagePath, sandboxTestCards, type SandboxProvider } from './sandbox.ts';

const texts = {
  title: 'Larder sandbox: card details',
  heading: 'Card details',
  intro: 'This is Larder’s sandbox card page: no real card is charged. Use one of the published test cards.',
  testCards: 'Test cards',
  succeeds: 'is saved and every charge succeeds',
  declined: 'is declined when saved',
  failsLater: 'is saved, and every charge after the first is declined',
  number: 'Card number',
  expiry: 'Expiry (MM/YY)',
  cvc: 'CVC',
  name: 'Name on card',
  save: 'Save card',
  numberInvalid: 'Enter a valid card number.',
  useTestCard: 'This sandbox takes only its test cards: use one of the numbers listed on this page.',
  expiryInvalid: 'Enter the expiry as MM/YY.',
  expiryPast: 'This card has expired.',
  cvcInvalid: 'Enter the 3 or 4 digits of the CVC.',
  nameInvalid: 'Enter the name on the card.',
  problems: 'Check the card details:',
  declinedHeading: 'Card declined',
  declinedText: 'The card was declined. Nothing was saved. Close this window and set up the card again with another card.',
  savedHeading: 'Card saved',
  savedText: (last4: string) => `The card ending in ${last4} is saved. Continue to finish the setup in Larder.`,
  continue: 'Continue',
  completedHeading: 'Already completed',
  completedText: 'This card page has already been completed.',
  expiredHeading: 'Card page expired',
  expiredText: 'This card page has expired. Open the card setup again.',
  notFoundHeading: 'No such card page',
  notFoundText: 'There is no such card page.',
};

const style = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1f; --muted: #4a4a55; --line: #767680; --accent: #1d4ed8; --accent-fg: #ffffff; --error: #b3261e; }
@media (prefers-color-scheme: dark) { :root { --bg: #16161a; --fg: #ececf1; --muted: #c4c4cf; --line: #9a9aa6; --accent: #93b4ff; --accent-fg: #0b1530; --error: #ffb4ab; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 28rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
h2 { font-size: 1rem; margin: .75rem 0 0; }
p, li { color: var(--muted); margin: .25rem 0; }
ul { padding-left: 1.25rem; margin: .25rem 0 1rem; }
code { font-family: ui-monospace, monospace; color: var(--fg); }
form { display: grid; gap: .75rem; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input { width: 100%; padding: .5rem .625rem; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
input[aria-invalid="true"] { border-color: var(--error); }
.error { color: var(--error); margin: .25rem 0 0; font-size: .9rem; }
.summary { border: 1px solid var(--error); border-radius: 6px; padding: .5rem .75rem; }
.summary p { color: var(--error); }
button, .button { justify-self: start; display: inline-block; padding: .5rem 1rem; font: inherit; font-weight: 600; color: var(--accent-fg); background: var(--accent); border: 0; border-radius: 6px; cursor: pointer; text-decoration: none; }
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const styleHash = sha256(style);

/** The page's policy: nothing loads but its own hashed style (and script, when it has one). */
export const sandboxPagePolicy = (scriptHash?: string) =>
  [
    "default-src 'none'",
    `style-src ${styleHash}`,
    scriptHash ? `script-src ${scriptHash}` : "script-src 'none'",
    "img-src 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    "base-uri 'none'",
  ].join('; ');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function document(title: string, body: string, script?: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${body}
</main>${script ? `\n<script>${script}</script>` : ''}
</body>
</html>
`;
}

type Field = 'number' | 'expiry' | 'cvc' | 'name';
type FieldErrors = Partial<Record<Field, string>>;

const spaced = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

function formPage(action: string, values: { expiry: string; name: string }, errors: FieldErrors): string {
  const input = (field: Field, label: string, attributes: string, value = '') => {
    const error = errors[field];
    const described = error ? ` aria-invalid="true" aria-describedby="${field}-error"` : '';
    return `<div>
<label for="${field}">${escapeHtml(label)}</label>
<input id="${field}" name="${field}" ${attributes} value="${escapeHtml(value)}" required${described}>
${error ? `<p class="error" id="${field}-error">${escapeHtml(error)}</p>` : ''}
</div>`;
  };
  const listed = Object.entries(sandboxTestCards)
    .map(([number, behaviour]) => {
      const what = behaviour === 'succeed' ? texts.succeeds : behaviour === 'decline' ? texts.declined : texts.failsLater;
      return `<li><code>${spaced(number)}</code> ${escapeHtml(what)}</li>`;
    })
    .join('\n');
  const summary = Object.keys(errors).length
    ? `<div class="summary" role="alert"><p>${escapeHtml(texts.problems)}</p><ul>${Object.values(errors)
        .map((error) => `<li>${escapeHtml(error)}</li>`)
        .join('')}</ul></div>`
    : '';
  return document(
    texts.title,
    `<h1>${escapeHtml(texts.heading)}</h1>
<p>${escapeHtml(texts.intro)}</p>
<h2>${escapeHtml(texts.testCards)}</h2>
<ul>
${listed}
</ul>
${summary}
<form method="post" action="${escapeHtml(action)}" autocomplete="on" novalidate>
${input('number', texts.number, 'type="text" inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
<div class="row">
${input('expiry', texts.expiry, 'type="text" inputmode="numeric" autocomplete="cc-exp" maxlength="7" placeholder="MM/YY"', values.expiry)}
${input('cvc', texts.cvc, 'type="text" inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}
</div>
${input('name', texts.name, 'type="text" autocomplete="cc-name" maxlength="100"', values.name)}
<button type="submit">${escapeHtml(texts.save)}</button>
</form>`,
  );
}

const messageBody = (heading: string, text: string, link?: { href: string; label: string }) =>
  `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>${link ? `\n<p><a class="button" href="${escapeHtml(link.href)}" target="_top">${escapeHtml(link.label)}</a></p>` : ''}`;

const messagePage = (heading: string, text: string) => document(texts.title, messageBody(heading, text));

/** The card form's fields, read and checked. Only the last four digits leave this function. */
export function readCardForm(body: unknown, now: Date): { errors: FieldErrors; values: { expiry: string; name: string }; card?: { last4: string; brand: string; behaviour: (typeof sandboxTestCards)[string] } } {
  const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = (name: Field) => (typeof fields[name] === 'string' ? (fields[name] as string) : '').trim();
  const errors: FieldErrors = {};
  const digits = text('number').replace(/[\s-]/g, '');
  const expiry = text('expiry').slice(0, 10);
  const name = text('name').slice(0, 100);

  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) errors.number = texts.numberInvalid;
  else if (!(digits in sandboxTestCards)) errors.number = texts.useTestCard;

  const exp = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry);
  const month = exp ? Number(exp[1]) : 0;
  if (!exp || month < 1 || month > 12) errors.expiry = texts.expiryInvalid;
  else {
    const year = exp[2]!.length === 2 ? 2000 + Number(exp[2]) : Number(exp[2]);
    // A card is good through the last day of its expiry month (UTC).
    if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) errors.expiry = texts.expiryPast;
  }
  if (!/^\d{3,4}$/.test(text('cvc'))) errors.cvc = texts.cvcInvalid;
  if (!name) errors.name = texts.nameInvalid;

  const values = { expiry, name };
  if (Object.keys(errors).length) return { errors, values };
  return { errors, values, card: { last4: digits.slice(-4), brand: cardBrand(digits), behaviour: sandboxTestCards[digits]! } };
}

function send(reply: FastifyReply, status: number, html: string, scriptHash?: string) {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': sandboxPagePolicy(scriptHash),
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
    .send(html);
}

/** The page for a session that is not open (or not there). */
function closedPage(reply: FastifyReply, row: CardSessionRow | undefined, status: string) {
  if (!row) return send(reply, 404, messagePage(texts.notFoundHeading, texts.notFoundText));
  if (status === 'completed') return send(reply, 409, messagePage(texts.completedHeading, texts.completedText));
  if (status === 'declined') return send(reply, 200, messagePage(texts.declinedHeading, texts.declinedText));
  return send(reply, 410, messagePage(texts.expiredHeading, texts.expiredText));
}

/** The page after a saved card: the whole window goes on to the return address. */
function savedPage(reply: FastifyReply, last4: string, returnUrl: string) {
  const script = `window.top.location.href=${JSON.stringify(returnUrl).replace(/</g, '\\u003c')};`;
  const body = messageBody(texts.savedHeading, texts.savedText(last4), { href: returnUrl, label: texts.continue });
  return send(reply, 200, document(texts.title, body, script), sha256(script));
}

export interface SandboxPageOptions {
  cards: CardSessionService;
  provider: SandboxProvider;
}

/** Registers the page's two routes (no bearer: the session id is the credential). */
export async function sandboxPageRoutes(app: FastifyInstance, { cards, provider }: SandboxPageOptions) {
  const path = '/providers/sandbox/pay/:sessionID';
  const sessionOf = async (request: FastifyRequest) => {
    const { sessionID } = request.params as { sessionID: string };
    const row = sessionID.length <= 200 ? await cards.row(sessionID) : undefined;
    return row && row.provider === 'sandbox' && row.providerSessionId ? row : undefined;
  };

  app.get(path, { schema: { hide: true } }, async (request, reply) => {
    const row = await sessionOf(request);
    const status = row ? cards.statusOf(row) : 'missing';
    if (!row || status !== 'open') return closedPage(reply, row, status);
    return send(reply, 200, formPage(sandboxPagePath(row.id), { expiry: '', name: '' }, {}));
  });

  app.post(path, { schema: { hide: true } }, async (request, reply) => {
    const row = await sessionOf(request);
    const status = row ? cards.statusOf(row) : 'missing';
    if (!row || status !== 'open') return closedPage(reply, row, status);
    const form = readCardForm(request.body, cards.now());
    if (!form.card) return send(reply, 422, formPage(sandboxPagePath(row.id), form.values, form.errors));
    await provider.record(row.providerSessionId!, form.card);
    const outcome = await provider.setupOutcome(row.providerSessionId!);
    if (outcome.status === 'completed') return savedPage(reply, outcome.card.last4, cards.returnUrlOf(row.id));
    const state = await cards.refresh(row);
    return closedPage(reply, row, state.status);
  });
}
