/**
 * The item table's column widths by what a column shows (docs/console-delivery.md): a date-time
 * in the reader's locale ("September 28, 2026 at 12:30 PM") whole, numbers and yes/no narrow, text
 * at a reading width; never narrower than its heading (with the sort arrow). People can still
 * resize every column.
 */

/** Pixels at the table's 14 px font, by field type name. */
const byType: Readonly<Record<string, number>> = {
  Date: 270,
  Number: 130,
  Bool: 110,
  Option: 160,
  Phone: 170,
  Link: 220,
  PlainText: 200,
  RichText: 260,
  JSON: 220,
  ItemRef: 180,
  ImageRef: 120,
  ImageRefSet: 160,
  GeoPoint: 200,
  NestedCollection: 150,
};

/** The ids are 24 hexadecimal digits in a monospaced font. */
export const idColumnWidth = 250;
const fallback = 200;
/** A heading's letters at about 8 px each, the cell's padding and the sort arrow. */
const headingWidth = (heading: string) => Math.ceil(heading.length * 8.2) + 56;
const widest = 360;

export function columnWidth(type: string | undefined, heading: string): number {
  const base = (type && byType[type]) || fallback;
  return Math.min(widest, Math.max(base, headingWidth(heading)));
}
