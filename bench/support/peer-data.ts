/**
 * The peer benchmark's rows (bench/peer.ts, docs/performance.md "Peer benchmark"): the data shape
 * an outside side-by-side run compared us with Directus on, made deterministically from a seed.
 *
 * Words follow a Zipf-like distribution (weight 1/rank) over a vocabulary of a few thousand
 * English-like words: about a hundred common English words first, then words built from English
 * onsets, vowels and codas. Two words are placed on purpose: `market` gets the probability that
 * puts it in about 87 % of bodies and `zephyr` the one that puts it in about 0.5 %; no other word
 * of the vocabulary holds either as a part, so a substring count (`ilike '%market%'`) counts the
 * word. The probabilities are solved against the bodies' own word counts (sampled from the same
 * generator before the rows), so the shares hold whatever the vocabulary's word lengths are.
 */
import { createHash } from 'node:crypto';
import { prng } from './data.ts';

export const commonWord = 'market';
export const rareWord = 'zephyr';
/** Shares of bodies the two placed words aim at. */
export const commonShare = 0.87;
export const rareShare = 0.005;

/** The Option's four choices and their uneven shares. */
export const statusChoices = [
  { _id: 'published', value: 'Published', share: 0.62 },
  { _id: 'draft', value: 'Draft', share: 0.23 },
  { _id: 'review', value: 'In review', share: 0.1 },
  { _id: 'archived', value: 'Archived', share: 0.05 },
] as const;

export const metaSources = ['web', 'import', 'api', 'mobile', 'partner'] as const;

/** `views` is 100,000 × u⁴ (skewed toward small numbers): above this, about 10 % of rows (1 − 0.9). */
export const viewsMax = 100_000;
export const viewsTenPercent = Math.round(viewsMax * 0.9 ** 4);

/** `publishedAt` spreads over the five years from this instant. */
export const publishedFrom = Date.UTC(2020, 0, 1);
export const publishedSpanMs = 5 * 365 * 86_400_000;

export interface PeerRow {
  title: string;
  body: string;
  views: number;
  rating: number;
  published: boolean;
  /** The Option choice's `_id`. */
  status: string;
  /** ISO 8601, UTC. */
  publishedAt: string;
  meta: { tags: string[]; source: string; n: number };
}

const common = (
  'the of and to in is for on that with as by at from this are be it was or an have not which but has ' +
  'new more their all its will one can they about when other our also there time been first only year ' +
  'after over some most into people than two these would could between where many under while city ' +
  'price local report group public company business during three such world those each state order ' +
  'since service early home during work data page review season team plan open value trade money'
).split(' ');

const onsets = ['b', 'bl', 'br', 'c', 'ch', 'cl', 'cr', 'd', 'dr', 'f', 'fl', 'fr', 'g', 'gl', 'gr', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'pl', 'pr', 'qu', 'r', 's', 'sh', 'sk', 'sl', 'sp', 'st', 'str', 't', 'th', 'tr', 'v', 'w', 'wh', 'y'];
const vowels = ['a', 'e', 'i', 'o', 'u', 'ea', 'ee', 'oo', 'ai', 'ou', 'ie', 'oa'];
const codas = ['', '', '', 'n', 'r', 's', 't', 'nd', 'st', 'ck', 'll', 'ng', 'rt', 'nt', 'm', 'p', 'sh', 'th', 'ld', 'x'];
const endings = ['', '', '', '', 'ing', 'ed', 'er', 'ly', 'ion', 'ness', 'ment', 'y'];

/** `size` distinct English-like words: the common words, then made-up ones; none holds a placed word. */
function vocabularyOf(random: () => number, size: number): string[] {
  const words = new Set<string>(common);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  while (words.size < size) {
    const syllables = 1 + Math.floor(random() * random() * 3.5);
    let word = '';
    for (let s = 0; s < syllables; s += 1) word += pick(onsets) + pick(vowels) + (s === syllables - 1 ? pick(codas) : '');
    word += pick(endings);
    if (word.length < 3 || word.length > 12 || word.includes(commonWord) || word.includes(rareWord) || commonWord.includes(word) || rareWord.includes(word)) continue;
    words.add(word);
  }
  return [...words];
}

/** Cumulative weights and the words they pick; `pick(u)` for u in [0, 1). */
class Distribution {
  private readonly cumulative: Float64Array;
  constructor(
    readonly words: readonly string[],
    weights: readonly number[],
  ) {
    this.cumulative = new Float64Array(weights.length);
    const total = weights.reduce((a, b) => a + b, 0);
    let sum = 0;
    weights.forEach((w, i) => (this.cumulative[i] = sum += w / total));
    this.cumulative[weights.length - 1] = 1;
  }
  probability(i: number) {
    return this.cumulative[i]! - (i === 0 ? 0 : this.cumulative[i - 1]!);
  }
  pick(u: number): string {
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    return this.words[lo]!;
  }
}

/** Body length in characters: 250 + 300 × u^1.1 (250–550, mean about 393) before the last word. */
const bodyTarget = (random: () => number) => 250 + Math.floor(300 * random() ** 1.1);

function textOf(random: () => number, words: Distribution, targetChars: number, maxChars: number): { text: string; count: number } {
  let text = words.pick(random());
  let count = 1;
  while (text.length < targetChars) {
    const word = words.pick(random());
    if (text.length + 1 + word.length > maxChars) break;
    text += ' ' + word;
    count += 1;
  }
  return { text, count };
}

/**
 * The distribution with the placed words' probabilities solved for their shares of bodies:
 * Zipf weights 1/rank over the vocabulary; each placed word goes at the rank whose weight is
 * nearest its solved probability, with that probability exactly.
 */
function distributionOf(seed: number, vocabulary: string[]): Distribution {
  const zipf = vocabulary.map((_, i) => 1 / (i + 1));
  const total = zipf.reduce((a, b) => a + b, 0);
  const build = (pCommon: number, pRare: number) => {
    const words = [...vocabulary];
    const weights = [...zipf];
    // Weights are in units of the Zipf total; a placed word's weight w of a new total T + w has probability p: w = pT/(1 − p).
    for (const [word, p] of [
      [commonWord, pCommon],
      [rareWord, pRare],
    ] as const) {
      const w = (p * total) / (1 - p);
      const at = weights.findIndex((x) => x < w);
      words.splice(at < 0 ? words.length : at, 0, word);
      weights.splice(at < 0 ? weights.length : at, 0, w);
    }
    return new Distribution(words, weights);
  };
  // Words per body, sampled with a first guess; the shares are then solved against those counts.
  let pCommon = 0.03;
  let pRare = 0.0001;
  for (let round = 0; round < 2; round += 1) {
    const trial = build(pCommon, pRare);
    const random = prng(seed ^ 0x5eed);
    const counts: number[] = [];
    for (let i = 0; i < 4000; i += 1) counts.push(textOf(random, trial, bodyTarget(random), 550).count);
    const share = (p: number) => counts.reduce((sum, n) => sum + 1 - (1 - p) ** n, 0) / counts.length;
    const solve = (target: number) => {
      let lo = 0;
      let hi = 0.5;
      for (let i = 0; i < 60; i += 1) {
        const mid = (lo + hi) / 2;
        if (share(mid) < target) lo = mid;
        else hi = mid;
      }
      return (lo + hi) / 2;
    };
    pCommon = solve(commonShare);
    pRare = solve(rareShare);
  }
  return build(pCommon, pRare);
}

export interface PeerGenerator {
  /** The vocabulary in rank order (the placed words among it). */
  words: readonly string[];
  /** The probability of each placed word per drawn word. */
  probabilities: { common: number; rare: number };
  next(): PeerRow;
}

/** Rows from `seed`: the same seed gives the same rows in the same order. */
export function peerGenerator(seed = 28, vocabularySize = 4000): PeerGenerator {
  const vocabulary = vocabularyOf(prng(seed), vocabularySize);
  const words = distributionOf(seed, vocabulary);
  const random = prng(seed + 1);
  const cumulativeStatus: number[] = [];
  let sum = 0;
  for (const choice of statusChoices) cumulativeStatus.push((sum += choice.share));
  const indexOf = (word: string) => words.words.indexOf(word);
  return {
    words: words.words,
    probabilities: { common: words.probability(indexOf(commonWord)), rare: words.probability(indexOf(rareWord)) },
    next(): PeerRow {
      // 3–8 words; the first capitalised.
      let t = words.pick(random());
      for (let i = 3 + Math.floor(random() * 6); i > 1; i -= 1) t += ' ' + words.pick(random());
      const body = textOf(random, words, bodyTarget(random), 550).text;
      const views = Math.floor(viewsMax * random() ** 4);
      const rating = Math.round(random() * 500) / 100;
      const published = random() < 0.7;
      const u = random();
      const status = statusChoices[cumulativeStatus.findIndex((c) => u < c)]?._id ?? statusChoices[0]._id;
      const publishedAt = new Date(publishedFrom + Math.floor(random() * publishedSpanMs)).toISOString();
      const tags: string[] = [];
      for (let i = 1 + Math.floor(random() * 3); i > 0; i -= 1) tags.push(words.pick(random()));
      const meta = { tags, source: metaSources[Math.floor(random() * metaSources.length)]!, n: Math.floor(random() * 10) };
      return { title: t.charAt(0).toUpperCase() + t.slice(1), body, views, rating, published, status, publishedAt, meta };
    },
  };
}

/** An item as the API takes it: values by slug, the Option by its choice's id. */
export const itemBody = (row: PeerRow) => ({ ...row, status: { _id: row.status } });

/** A row as one canonical line (for hashes that compare runs and databases). */
export function canonicalRow(row: PeerRow): string {
  return JSON.stringify([row.title, row.body, row.views, row.rating, row.published, row.status, row.publishedAt, JSON.stringify(row.meta)]);
}

/** SHA-256 (hex, first 16 characters) of rows' canonical lines. */
export function rowsHash(rows: Iterable<PeerRow>): string {
  const hash = createHash('sha256');
  for (const row of rows) hash.update(canonicalRow(row) + '\n');
  return hash.digest('hex').slice(0, 16);
}
