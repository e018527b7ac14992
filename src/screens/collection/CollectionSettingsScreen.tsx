/**
 * New Collection and Edit Collection: one screen for both routes. With a
 * collectionID in the route it edits that collection, otherwise it creates one.
 */
import { useParams } from 'react-router';
import { EditCollection } from './EditCollection.tsx';
import { NewCollection } from './NewCollection.tsx';

export default function CollectionSettingsScreen() {
  const { collectionID } = useParams();
  // Keyed by id: another collection's settings start from its own state.
  return collectionID ? <EditCollection key={collectionID} collectionID={collectionID} /> : <NewCollection />;
}
