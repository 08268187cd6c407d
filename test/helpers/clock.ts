/**
 * The services' clock for a test: real time that the test moves forward at once (`skip`) instead of waiting out a
 * cooldown or a retry delay, so timestamps written with it still sort with the test's own Date.now().
 */
export interface TestClock {
  now: () => number;
  skip: (ms: number) => void;
}

export function testClock(): TestClock {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    skip: (ms) => {
      skipped += ms;
    },
  };
}
