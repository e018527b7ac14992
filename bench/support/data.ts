/** Deterministic data for the benchmarks: every run loads the same items. */

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const syllables = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'qui', 'ber', 'nal', 'sto', 'pe', 'dru', 'fi', 'gon', 'hal', 'jun', 'xe', 'zor', 'wi', 'yam'];

/** `size` distinct made-up words of 2 to 4 syllables. */
export function vocabulary(random: () => number, size: number) {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < n; i += 1) word += syllables[Math.floor(random() * syllables.length)];
    words.add(word);
  }
  return [...words];
}

/** `count` words drawn from `words`, joined by spaces. */
export function phrase(random: () => number, words: readonly string[], count: number): string {
  const out: string[] = [];
  for (let w = 0; w < count; w += 1) out.push(words[Math.floor(random() * words.length)]!);
  return out.join(' ');
}
