import { useFormat } from '../../../renderers/messages/use-format.ts';

export default function AdminMetricsScreen() {
  const format = useFormat();
  return <h2>{format('route.metrics.title')}</h2>;
}
