/** The settings form of this integration on its own, so the build compiles its validator (`?validator`). */
import { meilisearch } from './index.ts';

export default meilisearch.settings;
