/**
 * The relay loop (server/lib/relay-loop.ts) that webhook deliveries and subscriber runs share: a
 * write's wake-up (`soon`) runs the relay once after a short delay, spaced from the last run, and
 * when asked waits for a quiet moment; a stop cancels a wake-up not yet run.
 */
import { describe, expect, it } from 'vitest';
import { RelayLoop } from '../../server/lib/relay-loop.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loop whose batches read nothing; the times its runs began. */
function loop(timing: ConstructorParameters<typeof RelayLoop>[2]) {
  const runs: number[] = [];
  const relay = new RelayLoop(
    async () => {
      runs.push(Date.now());
      return 0;
    },
    (error) => {
      throw error;
    },
    timing,
  );
  return { relay, runs };
}

describe('RelayLoop', () => {
  it('runs once for the wake-ups of one moment, after the delay', async () => {
    const { relay, runs } = loop({ delayMs: 300, spacingMs: 0 });
    const woken = Date.now();
    relay.soon();
    relay.soon();
    relay.soon();
    await sleep(50);
    expect(runs).toEqual([]);
    await sleep(600);
    expect(runs).toHaveLength(1);
    expect(runs[0]! - woken).toBeGreaterThanOrEqual(290);
  });

  it('spaces a wake-up from the last run', async () => {
    const { relay, runs } = loop({ delayMs: 0, spacingMs: 500 });
    relay.run();
    await relay.settled();
    relay.soon();
    await sleep(50);
    expect(runs).toHaveLength(1);
    await sleep(800);
    expect(runs).toHaveLength(2);
    expect(runs[1]! - runs[0]!).toBeGreaterThanOrEqual(490);
  });

  it('waits for a quiet moment when asked, at most its limit', async () => {
    let release = () => {};
    const asked: number[] = [];
    const { relay, runs } = loop({
      delayMs: 0,
      spacingMs: 0,
      quiet: {
        maxMs: 5000,
        wait: (until) => {
          asked.push(until - Date.now());
          return new Promise<void>((resolve) => (release = resolve));
        },
      },
    });
    relay.soon();
    await sleep(50);
    expect(runs).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBeGreaterThan(4900);
    release();
    await sleep(20);
    expect(runs).toHaveLength(1);
  });

  it('a stop cancels a wake-up not yet run, also one waiting for quiet', async () => {
    const first = loop({ delayMs: 100, spacingMs: 0 });
    first.relay.soon();
    await first.relay.stop();
    const waiting = loop({ delayMs: 0, spacingMs: 0, quiet: { maxMs: 5000, wait: () => new Promise(() => {}) } });
    waiting.relay.soon();
    await sleep(20);
    await waiting.relay.stop();
    await sleep(200);
    expect(first.runs).toEqual([]);
    expect(waiting.runs).toEqual([]);
    // Started again, it runs on the next wake-up.
    first.relay.restart();
    first.relay.soon();
    await sleep(500);
    expect(first.runs).toHaveLength(1);
  });
});
