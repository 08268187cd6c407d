import type { ComponentProps, ReactNode } from 'react';
import type { DraftForm } from '../lib/useDraftForm';
import { ApiKeyInput } from './ApiKeyInput';
import { FieldProblem } from './FieldProblem';

/**
 * A labelled text input bound to one field of a draft form: its value, its edits, aria-invalid and aria-describedby,
 * and what is wrong with it underneath. `apiKey` suggests the API keys that have memories.
 */
export function DraftField<T extends object>({
  form,
  name,
  label,
  className,
  apiKey,
  children,
  ...input
}: {
  form: DraftForm<T>;
  /** A field whose draft value is the input's text. */
  name: Extract<keyof T, string>;
  label: string;
  className?: string;
  apiKey?: boolean;
  /** Shown between the input and its problem: a hint, where the value comes from. */
  children?: ReactNode;
} & Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'name' | 'form' | 'children'>) {
  const props = {
    ...input,
    value: String(form.draft?.[name] ?? ''),
    onChange: (e: { target: { value: string } }) => form.edit({ [name]: e.target.value } as Partial<T>),
    ...form.field(name),
  };
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the input is one of the two below, chosen by `apiKey`.
    <label className={className ? `field ${className}` : 'field'}>
      <span>{label}</span>
      {apiKey ? <ApiKeyInput {...props} /> : <input {...props} />}
      {children}
      <FieldProblem form={form} name={name} />
    </label>
  );
}
