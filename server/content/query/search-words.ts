/**
 * Reads, before a searched list is compiled, the tokens of each searched field's vocabulary
 * (item_search_words, migration 0012) that hold each search text, in one statement, so the list's
 * statement tests the word indexes with constant token lists: the planner then estimates them
 * from the index's statistics, and the GIN tests are split in a few tokens each (compile.ts
 * holdsWord). A text too many tokens or rows hold is marked 'many' and searched without the word
 * index (docs/content-storage.md "Listing and searching items").
 */
import { sql, type SQL } from 'drizzle-orm';
import { query, wordIndexName, type Executor } from '../storage.ts';
import { trigramLength, wordSearch } from './compile.ts';
import type { Cond, SearchWords } from './conditions.ts';
import { defaultQueryTuning, type SearchWordLimits } from './tuning.ts';

const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The search conditions of a tree the word index can serve, with the table each is on. */
function servedConds(c: Cond, table: string, out: { c: Cond; table: string }[] = []): { c: Cond; table: string }[] {
  if (c.k === 'and' || c.k === 'or') for (const inner of c.of) servedConds(inner, table, out);
  else if (c.k === 'not') servedConds(c.of, table, out);
  else if (c.k === 'elem') servedConds(c.cond, c.child.table, out);
  else if (wordSearch(c)) out.push({ c, table });
  return out;
}

/** The tree with every served search condition given its tokens. */
function withWords(c: Cond, words: Map<Cond, SearchWords>): Cond {
  switch (c.k) {
    case 'and':
    case 'or':
      return { ...c, of: c.of.map((inner) => withWords(inner, words)) };
    case 'not':
      return { ...c, of: withWords(c.of, words) };
    case 'elem':
      return { ...c, cond: withWords(c.cond, words) };
    case 'contains':
    case 'refValue':
      return words.has(c) ? { ...c, words: words.get(c)! } : c;
    default:
      return c;
  }
}

/**
 * The condition tree with the tokens of its search texts read from the vocabularies (or from
 * `known`, what the caller remembers of them: read again only after a write to the collection —
 * engine.ts SearchWordMemory — and filled with what this call reads) (unchanged
 * when it holds no search the word index serves). Short texts (no trigram) read the field's
 * vocabulary in its primary key; longer ones its trigram index. A text is left to the trigram
 * path ('many') when more than `limits.tokens` tokens hold it, or when its tokens are
 * estimated in more than `limits.rowShare` of the rows (from the word index's element
 * statistics, which ANALYZE keeps; a token they do not list counts as PostgreSQL's planner counts
 * it: half the rarest listed one's share, at most 0.5%). So
 * many rows would make the bitmap lossy, and a lossy page is rechecked by computing each of its
 * rows' words again; the trigram path rechecks with a plain ilike. The tokens are given in groups
 * of `limits.perTest`, one word-index test each (compile.ts holdsWord). `usable` says whether a
 * field's word index may serve (not while it is being made): when not, its texts are 'many'.
 */
export async function resolveSearchWords(
  executor: Executor,
  table: string,
  where: Cond | undefined,
  limits: Readonly<SearchWordLimits> = defaultQueryTuning.searchWords,
  known?: Map<string, SearchWords>,
  usable?: (table: string, column: string) => boolean,
): Promise<Cond | undefined> {
  if (!where) return where;
  const conds = servedConds(where, table);
  if (conds.length === 0) return where;
  const keys = new Map<string, { column: string; index: string; text: string; conds: Cond[] }>();
  const words = new Map<Cond, SearchWords>();
  for (const { c, table: on } of conds) {
    const served = wordSearch(c)!;
    // A word index still being made (server/content/field-indexes.ts): its vocabulary may miss words.
    if (usable && !usable(on, served.column)) {
      words.set(c, 'many');
      continue;
    }
    const text = (c as { text: string }).text;
    const key = `${served.column}\u0000${text}`;
    const remembered = known?.get(key);
    if (remembered) {
      words.set(c, remembered);
      continue;
    }
    const entry = keys.get(key) ?? { column: served.column, index: wordIndexName(on, served.column.slice('f_'.length)), text, conds: [] };
    entry.conds.push(c);
    keys.set(key, entry);
  }
  if (keys.size === 0) return withWords(where, words);
  const entries = [...keys.values()];
  const word = sql.identifier('word');
  const reads: SQL[] = entries.map((entry, i) => {
    const match =
      [...entry.text].length < trigramLength ? sql`strpos(${word}, lower(${entry.text}::text)) > 0` : sql`${word} like lower(${`%${likeLiteral(entry.text)}%`}::text)`;
    const tokens = sql`array(select ${word} from item_search_words where field_column = ${entry.column}::text and ${match} limit ${limits.tokens + 1})`;
    // most_common_elem_freqs: one per listed element (a share of the rows with a value), then the
    // least and the greatest of them and the share of empty arrays.
    const share = sql`(select sum(coalesce(s.f[array_position(s.e, w)], least(0.005, s.f[cardinality(s.e) + 1] / 2)) * (1 - s.n)) from unnest(t.words) w,
      (select most_common_elems::text::text[] as e, most_common_elem_freqs as f, null_frac as n from pg_stats where schemaname = current_schema() and tablename = ${entry.index}::text limit 1) s)`;
    return sql`select ${i}::integer as i, t.words, ${share}::double precision as share from (select ${tokens} as words) t`;
  });
  const rows = await query<{ i: number; words: string[]; share: number | null }>(executor, sql.join(reads, sql` union all `));
  for (const row of rows) {
    const list = parseTextArray(row.words);
    const common = list.length > limits.tokens || (row.share !== null && Number(row.share) > limits.rowShare);
    const entry = entries[row.i]!;
    const found: SearchWords = common ? 'many' : groups(list, limits.perTest);
    known?.set(`${entry.column}\u0000${entry.text}`, found);
    for (const c of entry.conds) words.set(c, found);
  }
  return withWords(where, words);
}

/** The tokens in groups of at most `size` (at least one each). */
function groups(tokens: readonly string[], size: number): string[][] {
  const step = Math.max(1, size);
  const out: string[][] = [];
  for (let i = 0; i < tokens.length; i += step) out.push(tokens.slice(i, i + step));
  return out;
}

/** A text[] as the driver gives it: node-postgres parses it, PGlite may hand over PostgreSQL's text. */
function parseTextArray(raw: string[] | string): string[] {
  if (Array.isArray(raw)) return raw;
  throw new Error(`a text array the driver did not parse: ${String(raw).slice(0, 40)}`);
}
