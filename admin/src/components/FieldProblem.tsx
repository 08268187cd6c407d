import type { DraftForm } from '../lib/useDraftForm';

/** What is wrong with one field, under it; the field points here with aria-describedby. */
export function FieldProblem<T extends object>({ form, name }: { form: DraftForm<T>; name: Extract<keyof T, string> }) {
  const text = form.problem(name);
  return text ? (
    <span id={form.problemId(name)} className="field-problem">
      {text}
    </span>
  ) : null;
}
