/** The first-time questionnaire, then home (which opens the user's organization if there is one). */
import { useNavigate } from 'react-router';
import questionnaireForm from '../../definitions/forms/questionnaire.ts';
import validateQuestionnaire from '../../definitions/forms/questionnaire.ts?validator';
import { routePath } from '../../definitions/route-path.ts';
import type { QuestionnairePayload } from '../../definitions/schemas/account.ts';
import { FormRenderer } from '../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useSaveQuestionnaire } from '../api/queries.ts';
import { problemFieldErrors } from '../shell/problem-field-errors.ts';
import { useProblemMessage } from '../hooks/use-problem-message.ts';

export default function QuestionnaireScreen() {
  const format = useFormat();
  const navigate = useNavigate();
  const save = useSaveQuestionnaire();
  const problemMessage = useProblemMessage();
  return (
    <FormRenderer
      definition={questionnaireForm}
      validate={validateQuestionnaire}
      busy={save.isPending}
      error={save.error ? problemMessage(save.error) : null}
      fieldErrors={problemFieldErrors(save.error, questionnaireForm)}
      onSubmit={async (values) => {
        try {
          await save.mutateAsync(values as unknown as QuestionnairePayload);
        } catch {
          return; // shown by the form
        }
        navigate(routePath('home'), { replace: true });
      }}
      intro={<p className="form-intro">{format('questionnaire.intro')}</p>}
    />
  );
}
