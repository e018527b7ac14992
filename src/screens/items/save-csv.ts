/** Hands a downloaded CSV to the browser as a file named after the collection and today's date. */
export function saveCsv(blob: Blob, collectionID: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${collectionID}-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has read it by then; the object URL would otherwise live as long as the page.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
