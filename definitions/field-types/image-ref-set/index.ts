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
    if (!Array.isArray(value)) return fail('imagesNotList');
    if (value.length > contentLimits.imageSetMax) return fail('imagesTooMany', { max: contentLimits.imageSetMax });
    const images: Record<string, string>[] = [];
    for (const [i, entry] of value.entries()) {
      const image = checkImage(entry, ['_id']);
      if (!image.ok) return fail(image.code, { ...image.params, image: i + 1 });
      images.push(image.value);
    }
    return ok(images.length ? images : null);
  },
  isEmpty: isBlank,
  checkSettings: (field) => ({ field, problems: checkAccept(field.accept) }),
  csv: jsonCsv,
  display: (value) => (Array.isArray(value) ? `${value.length}` : ''),
};
