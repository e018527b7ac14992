/** RichText (2): HTML from the rich-text editor, searched as text, never sorted. */
import { contentLimits } from '../../content.ts';
import { characterCount, fail, isBlank, ok, textCsv, unstorableText, unstorableTextCode } from '../support.ts';
import type { SettingRefusal } from '../setting-refusal.ts';
import type { FieldType } from '../types.ts';

export const richText: FieldType<'RichText'> = {
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
  valueKind: 'text',
  markup: 'html',
  validate(value) {
    if (typeof value !== 'string') return fail('notText');
    const problem = unstorableTextCode(value);
    if (problem) return fail(problem);
    if (value === '') return ok(null);
    if (characterCount(value) > contentLimits.richTextMax) return fail('tooLong', { max: contentLimits.richTextMax });
    return ok(value);
  },
  isEmpty: isBlank,
  checkSettings(field, context) {
    const problems: SettingRefusal[] = [];
    const css = field.richTextCustomCSS;
    if (css !== undefined && (typeof css !== 'string' || css.length > contentLimits.customCssMax || unstorableText(css))) {
      problems.push({ path: 'richTextCustomCSS', code: 'customCssInvalid', params: { max: contentLimits.customCssMax } });
    }
    const js = field.richTextCustomJS;
    if (js !== undefined && (typeof js !== 'string' || js.length > contentLimits.urlMax || unstorableText(js))) {
      problems.push({ path: 'richTextCustomJS', code: 'customScriptInvalid', params: { max: contentLimits.urlMax } });
    } else if (js !== undefined && !/^https?:\/\//i.test(js)) {
      problems.push({ path: 'richTextCustomJS', code: 'customScriptNotWeb' });
    } else if (js !== undefined && context.scriptsEnabled !== true && js !== context.previous?.richTextCustomJS) {
      // Custom scripts only where an organization admin has turned them on.
      problems.push({ path: 'richTextCustomJS', code: 'customScriptsOff' });
    }
    return { field, problems };
  },
  csv: textCsv,
  display: (value) => (typeof value === 'string' ? value : ''),
};
