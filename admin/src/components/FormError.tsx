import { GraphQLRequestError } from '../lib/fetcher';
import type { DraftForm } from '../lib/useDraftForm';
import { ErrorNote } from './ErrorNote';

/**
 * Why a draft form's request failed. The server's complaints about single fields stand beside those fields
 * (useDraftForm); here only what names none of them, or the error itself when it is not about the input.
 */
export function FormError<T extends object>({ error, form, prefix }: { error: unknown; form: DraftForm<T>; prefix: string }) {
  if (!(error instanceof GraphQLRequestError && error.code === 'BAD_USER_INPUT')) return <ErrorNote error={error} prefix={prefix} />;
  // Every field the server named was edited since: nothing it said still applies.
  if (form.formProblems.length === 0 && !form.serverMarked) return null;
  return (
    <div role="alert" className="error">
      {form.formProblems.length === 0 ? (
        `${prefix}: see the fields marked above.`
      ) : (
        <>
          {prefix}: {form.formProblems.join('; ')}
          <span className="code"> BAD_USER_INPUT</span>
        </>
      )}
    </div>
  );
}
