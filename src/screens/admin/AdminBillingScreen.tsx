import { useFormat } from '../../../renderers/messages/use-format.ts';

export default function AdminBillingScreen() {
  const format = useFormat();
  return <h2>{format('route.billingAdmin.title')}</h2>;
}
