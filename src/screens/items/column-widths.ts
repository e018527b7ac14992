/**
 * The item table's column widths by what a column shows (docs/console-delivery.md): a date-time
 * in the reader's locale ("September 28, 2026 at 12:30 PM") whole, numbers and yes/no narrow, text
 * at a reading width; never narrower than its heading (with the sort arrow). People can still
 * resize every column. Each type's width is its console renderer's `columnWidth`.
 */
import { fieldRendererOf } from '../../../renderers/fields/index.ts';

/** The ids are 24 hexadecimal digits in a monospaced font. */
export const idColumnWidth = 250;
const fallback = 200;
/** A heading's letters at about 8 px each, the cell's padding and the sort arrow. */
const headingWidth = (heading: string) => Math.ceil(heading.length * 8.2) + 56;
const widest = 360;

/** The width of a column of the field type with this code (its console renderer's `columnWidth`), wide enough for its heading. */
export function columnWidth(typeCode: number | undefined, heading: string): number {
  const base = (typeCode !== undefined && fieldRendererOf(typeCode)?.columnWidth) || fallback;
  return Math.min(widest, Math.max(base, headingWidth(heading)));
}
