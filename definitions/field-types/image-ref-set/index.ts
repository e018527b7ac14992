/** ImageRefSet (11): an ordered list of images (each with an optional `_id` for reordering). */
import { contentLimits } from '../../content.ts';
import { checkAccept, checkImage, imageKeys } from '../image-ref/index.ts';
import { fail, isBlank, jsonCsv, ok } from '../support.ts';
import type { FieldType } from '../types.ts';

export const imageRefSet: FieldType<'ImageRefSet'> = {
  code: 11,
  name: 'ImageRefSet',
  labelKey: 'fieldType.imageRefSet',
  icon: 'images',
  valueSchema: {
    type: ['array', 'null'],
    maxItems: contentLimits.imageSetMax,
    items: { type: 'object', properties: Object.fromEntries([...imageKeys, '_id'].map((key) => [key, { type: 'string' }])), additionalProperties: false },
  },
  capabilities: { creatable: true, primary: false, required: true, unique: false, sortable: false },
  settings: ['accept'],
  filterOperators: [],
  storage: { kind: 'column', column: 'jsonb', indexes: [] },
  valueKind: 'json',
  files: 'many',
  validate(value) {
    if (!Array.isArray(value)) return fail('must be a list of images');
    if (value.length > contentLimits.imageSetMax) return fail(`must hold at most ${contentLimits.imageSetMax} images`);
    const images: Record<string, string>[] = [];
    for (const [i, entry] of value.entries()) {
      const image = checkImage(entry, ['_id']);
      if (!image.ok) return fail(`image ${i + 1} ${image.message}`);
      images.push(image.value);
    }
    return ok(images.length ? images : null);
  },
  isEmpty: isBlank,
  checkSettings: (field) => ({ field, problems: checkAccept(field.accept) }),
  csv: jsonCsv,
  display: (value) => (Array.isArray(value) ? `${value.length}` : ''),
};
