/**
 * Item creates from a process of its own, so the load generator does not share the server's event
 * loop (as an app's clients would not): `callers` at once until `count` are made, after `warm`
 * untimed ones. Prints the creates' round trips in ms as a JSON array.
 *
 *   node bench/support/create-loop.mjs <items url> <token> <count> <callers> <warm> <first number>
 */
const [url, token, count, callers, warm, first] = process.argv.slice(2);
let n = Number(first);
const create = async () => {
  const body = JSON.stringify({ title: `Article ${n++}` });
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status >= 300) throw new Error(`POST ${url} → ${response.status} ${text.slice(0, 300)}`);
  return ms;
};
for (let i = 0; i < Number(warm); i++) await create();
const times = [];
let left = Number(count);
await Promise.all(
  Array.from({ length: Number(callers) }, async () => {
    while (left-- > 0) times.push(await create());
  }),
);
process.stdout.write(JSON.stringify(times));
