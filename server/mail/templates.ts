/**
 * Rendering a project's mail templates (docs/mail.md "Templates"): Liquid, with the values of
 * the HTML part escaped and control characters stripped from the values of the subject and the
 * text part. A template may name only the variables definitions/mail.ts lists for its kind and
 * only Liquid's own filters; it cannot read files (no partials or layouts). Parsing and rendering
 * are bounded by Liquid's own limits, so a loop over a huge range ends with an error instead of
 * holding the process.
 */
import { Liquid, type FS, type LiquidOptions } from 'liquidjs';
import { mailTemplateVariables, type MailTemplateKind, type MailTemplateText } from '../../definitions/mail.ts';
import { AppError } from '../lib/errors.ts';

/**
 * Liquid's limits: characters parsed, milliseconds of rendering, bytes a render may allocate
 * (strings, ranges). Rendering holds the event loop for its whole time (liquidjs renders
 * synchronously), and a member may preview any draft, so a part gets 500 ms: the default texts
 * render in well under one, and the limit is wall-clock time, which a loaded machine stretches
 * (100 ms refused a default text in a loaded browser test).
 */
export const renderLimits = { parseLimit: 300_000, renderLimit: 500, memoryLimit: 4_000_000 } as const;

const noFiles: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => {
    throw new Error('Templates cannot include files.');
  },
  readFileSync: () => {
    throw new Error('Templates cannot include files.');
  },
  resolve: (_dir, file) => file,
  contains: async () => false,
  containsSync: () => false,
};

const base: LiquidOptions = {
  fs: noFiles,
  root: [],
  relativeReference: false,
  strictVariables: true,
  strictFilters: true,
  ownPropertyOnly: true,
  cache: 100,
  ...renderLimits,
};

/** The HTML part: every value written is HTML-escaped. */
const htmlEngine = new Liquid({ ...base, outputEscape: 'escape' });
/** The subject and the text part: values as they are, less control characters (no header or line injection). */
const plainEngine = new Liquid({ ...base, outputEscape: (value: unknown) => stripControl(String(value ?? '')) });

// Tab and newline stay in the text part's values; the subject takes none of them.
const stripControl = (value: string) => value.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();

export type TemplateField = keyof MailTemplateText;
export const templateFields: readonly TemplateField[] = ['subject', 'html', 'text'];
const engineOf = (field: TemplateField) => (field === 'html' ? htmlEngine : plainEngine);

const liquidMessage = (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 500);
};

/** 400 `mail_template_invalid` naming the field and what is wrong with it. */
export const templateInvalid = (field: TemplateField, message: string) =>
  new AppError(400, 'mail_template_invalid', `The ${field} of the template is not valid: ${message}`, {
    errors: [{ path: field, message }],
  });

/**
 * Checks a draft: each part parses, names only the kind's variables and renders with the sample
 * values within the limits. Throws `mail_template_invalid` for the first part that does not;
 * answers the parts rendered with those values (so a preview renders once).
 */
export async function checkTemplate(kind: MailTemplateKind, draft: MailTemplateText, sample: Record<string, unknown>): Promise<MailTemplateText> {
  const allowed = new Set(mailTemplateVariables[kind]);
  const rendered: Partial<MailTemplateText> = {};
  for (const field of templateFields) {
    const engine = engineOf(field);
    let parsed;
    try {
      parsed = engine.parse(draft[field]);
    } catch (error) {
      throw templateInvalid(field, liquidMessage(error));
    }
    let names: string[];
    try {
      names = await engine.globalVariables(parsed, { partials: false });
    } catch (error) {
      throw templateInvalid(field, liquidMessage(error));
    }
    const unknown = names.find((name) => !allowed.has(name));
    if (unknown !== undefined) throw templateInvalid(field, `Unknown variable ${unknown}`);
    try {
      rendered[field] = await engine.render(parsed, sample);
    } catch (error) {
      throw templateInvalid(field, liquidMessage(error));
    }
  }
  return { subject: oneLine(rendered.subject!), html: rendered.html!, text: rendered.text! };
}

/** Renders the three parts with these values (the template was checked when saved). */
export async function renderTemplate(template: MailTemplateText, values: Record<string, unknown>): Promise<MailTemplateText> {
  const [subject, html, text] = await Promise.all(templateFields.map((field) => engineOf(field).parseAndRender(template[field], values)));
  return { subject: oneLine(subject!), html: html!, text: text! };
}
