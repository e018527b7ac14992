/** RichText (2): HTML from the rich-text editor, searched as text, never sorted. */
import { contentLimits } from '../../content.ts';
import { characterCount, fail, isBlank, ok, textCsv, unstorableText } from '../support.ts';
import type { FieldType, SettingProblem } from '../types.ts';

export const richText: FieldType = {
  code: 2,
  name: 'RichText',
  labelKey: 'fieldType.richText',
  icon: 'file-text',
  valueSchema: { type: ['string', 'null'], maxLength: contentLimits.richTextMax },
  capabilities: { creatable: true, primary: true, required: true, unique: false, sortable: false, followsDirection: true },
  settings: ['richTextCustomCSS', 'richTextCustomJS'],
  filterOperators: ['=', '!=', 'regex'],
  defaultOperator: 'regex',
  search: 'regex',
  storage: { kind: 'column', column: 'text', indexes: [{ kind: 'trigram', on: { of: 'value' } }] },
  markup: 'html',
  validate(value) {
    if (typeof value !== 'string') return fail('must be text');
    const problem = unstorableText(value);
    if (problem) return fail(problem);
    if (value === '') return ok(null);
    if (characterCount(value) > contentLimits.richTextMax) return fail(`must be at most ${contentLimits.richTextMax} characters`);
    return ok(value);
  },
  isEmpty: isBlank,
  checkSettings(field, context) {
    const problems: SettingProblem[] = [];
    const css = field.richTextCustomCSS;
    if (css !== undefined && (typeof css !== 'string' || css.length > contentLimits.customCssMax || unstorableText(css))) {
      problems.push({ path: 'richTextCustomCSS', message: `must be text of at most ${contentLimits.customCssMax} characters` });
    }
    const js = field.richTextCustomJS;
    if (js !== undefined && (typeof js !== 'string' || js.length > contentLimits.urlMax || unstorableText(js))) {
      problems.push({ path: 'richTextCustomJS', message: `must be the script file's address, at most ${contentLimits.urlMax} characters` });
    } else if (js !== undefined && !/^https?:\/\//i.test(js)) {
      problems.push({ path: 'richTextCustomJS', message: "must be the script file's http(s) address" });
    } else if (js !== undefined && context.scriptsEnabled !== true && js !== context.previous?.richTextCustomJS) {
      // Custom scripts only where an organization admin has turned them on.
      problems.push({ path: 'richTextCustomJS', message: 'custom script files are turned off for this project (an organization admin can turn them on)' });
    }
    return { field, problems };
  },
  csv: textCsv,
  display: (value) => (typeof value === 'string' ? value : ''),
};
