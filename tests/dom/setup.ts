/**
 * The DOM tests' shared set-up. `findBy…` and `waitFor` wait up to 5 s instead of 1 s: a screen's
 * first render in jsdom loads its lazy modules, which takes seconds on a loaded two-core runner.
 * A bound against hangs, not a speed target (speed is measured by `npm run bench`).
 */
import { configure } from '@testing-library/react';
// Components of an area (admin, Studio) are rendered here without the screen that loads its texts.
import '../../definitions/messages/all.ts';

configure({ asyncUtilTimeout: 5_000 });
