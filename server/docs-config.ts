/** `npm run docs:config`: rewrites the settings table of docs/configuration.md from server/settings.ts. */
import { writeConfigurationTable } from './settings-docs.ts';

await writeConfigurationTable();
