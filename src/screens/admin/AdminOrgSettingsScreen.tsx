import { useFormat } from '../../../renderers/messages/use-format.ts';

export default function AdminOrgSettingsScreen() {
  const format = useFormat();
  return <h2>{format('route.adminOrgSettings.title')}</h2>;
}
