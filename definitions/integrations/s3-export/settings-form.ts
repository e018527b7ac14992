/** The settings form of this integration on its own, so the build compiles its validator (`?validator`). */
import { s3Export } from './index.ts';

export default s3Export.settings;
