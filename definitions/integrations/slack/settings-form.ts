/** The settings form of this integration on its own, so the build compiles its validator (`?validator`). */
import { slack } from './index.ts';

export default slack.settings;
