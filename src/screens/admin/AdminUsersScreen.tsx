import { useFormat } from '../../../renderers/messages/use-format.ts';

export default function AdminUsersScreen() {
  const format = useFormat();
  return <h2>{format('route.userAdmin.title')}</h2>;
}
