/**
 * New Collection and Edit Collection (content spec §2). Work in progress: the collection form and
 * the schema builder arrive in this session.
 */
export default function CollectionSettingsScreen() {
  return null;
}
