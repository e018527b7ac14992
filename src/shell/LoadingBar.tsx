import { useNavigation } from 'react-router';
import { ui } from '../../definitions/constants.ts';

/** A thin bar at the top while a route's guards or screen load (0.5vh high). */
export function LoadingBar() {
  const navigation = useNavigation();
  return <div className="loading-bar" aria-hidden="true" style={{ height: ui.loadingBarHeight }} data-active={navigation.state !== 'idle' || undefined} />;
}
