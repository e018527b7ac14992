/** The heading of an Auth screen (Users, Groups): its title, marked Beta as the section is. */
import type { ReactNode } from 'react';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export function AuthHeading({ id, title, children }: { id: string; title: string; children?: ReactNode }) {
  const format = useFormat();
  return (
    <div className="section-header">
      <h2 id={id}>
        {title} <span className="badge badge-beta">{format('project.menu.beta')}</span>
      </h2>
      {children}
    </div>
  );
}

/** How a user is named in lists and dialogs: e-mail, else phone, else the id. */
export function userName(user: { userID: string; email?: string | null; phone?: string | null }): string {
  return user.email || user.phone || user.userID;
}
