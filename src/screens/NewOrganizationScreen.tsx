/** `/newOrganization`: a form for a new organization, whose creator becomes its administrator. */
import { NewOrganizationForm } from './organization/NewOrganizationForm.tsx';

export default function NewOrganizationScreen() {
  return (
    <section className="page page-narrow">
      <div className="panel">
        <NewOrganizationForm />
      </div>
    </section>
  );
}
