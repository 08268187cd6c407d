import { type FormEvent, useId, useState, useSyncExternalStore } from 'react';
import { GraphQLRequestError } from './fetcher';

type FieldName<T> = Extract<keyof T, string>;
export type Problems<T> = Partial<Record<FieldName<T>, string>>;

export interface DraftFormOptions<T extends object> {
  /**
   * Keeps an edited draft while the form is not shown (the admin went to another tab), under this name, "<tab>/<form>";
   * the tab shows that it holds unsaved changes. Without it the draft ends with the form.
   */
  keep?: string;
  /** The saved values, as the form edits them; each field follows them until it is edited. null while loading. */
  source: T | null;
  /**
   * What only the browser can know: a required field left empty, text that is not a number. Ranges and formats are
   * the server's to judge: its BAD_USER_INPUT message is shown beside the field it names, so no limit is written twice.
   */
  check?: (draft: T) => Problems<T>;
  /** The last save's error. */
  error: unknown;
  /** Called on every edit: the last save's outcome no longer applies (reset the mutation here). */
  onEdit?: () => void;
  onSubmit: (draft: T) => void;
}

export interface DraftForm<T extends object> {
  draft: T | null;
  /** Edited since it was saved or loaded. */
  dirty: boolean;
  edit(patch: Partial<T>): void;
  /** Back to the saved values. */
  discard(): void;
  /** Call when the save went through: the draft follows the server again. */
  saved(): void;
  submit(event: FormEvent): void;
  /** id, aria-invalid and aria-describedby for the input of a field. */
  field(name: FieldName<T>): { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined };
  /** What is wrong with a field now (shown once a save was tried), or null. */
  problem(name: FieldName<T>): string | null;
  problemId(name: FieldName<T>): string;
  /** The server's complaints that name no field of this form. */
  formProblems: string[];
  /** Some field still shows a complaint of the server's (one not edited since). */
  serverMarked: boolean;
}

/**
 * The one way the admin's forms hold what is being typed: a draft whose fields follow the server until edited, kept
 * while edited, checks that only the browser can make, and the server's BAD_USER_INPUT messages beside the fields
 * they name (aria-invalid, aria-describedby); the first field in trouble gets the focus.
 */
export function useDraftForm<T extends object>(options: DraftFormOptions<T>): DraftForm<T> {
  const { keep, source } = options;
  const prefix = useId();
  // Only the fields the admin changed: the others keep following the server, so a value that loads (or changes)
  // after the first keystroke is still the one shown and sent.
  const [edits, setEdits] = useState<Partial<T> | null>(() => (keep ? ((drafts.get(keep) as Partial<T> | undefined) ?? null) : null));
  const [tried, setTried] = useState(false);
  /** Fields edited since the server's last complaint: their complaint is stale. */
  const [editedSinceError, setEdited] = useState<{ error: unknown; fields: Set<string> }>({ error: null, fields: new Set() });

  const draft = source ? { ...source, ...edits } : null;
  const local = draft && tried ? (options.check?.(draft) ?? {}) : {};
  const fields = new Set(Object.keys(draft ?? {}));
  const fromServer = serverProblems(options.error, fields);
  const stale = editedSinceError.error === options.error ? editedSinceError.fields : new Set<string>();
  const problem = (name: FieldName<T>): string | null =>
    (local as Record<string, string | undefined>)[name] ?? (stale.has(name) ? null : (fromServer.byField.get(name) ?? null));
  const id = (name: string) => `${prefix}-${name}`;
  const problemId = (name: string) => `${prefix}-${name}-problem`;

  const reset = () => {
    if (keep) forget(keep);
    setTried(false);
    setEdits(null);
  };

  return {
    draft,
    dirty: edits !== null,
    edit: (patch) => {
      options.onEdit?.();
      setEdited((e) => ({
        error: options.error,
        fields: new Set([...(e.error === options.error ? e.fields : []), ...Object.keys(patch)]),
      }));
      setEdits((e) => {
        const next = { ...e, ...patch };
        if (keep) remember(keep, next);
        return next;
      });
    },
    discard: reset,
    saved: reset,
    submit: (event) => {
      event.preventDefault();
      if (!draft) return;
      setTried(true);
      const problems: Record<string, string | undefined> = options.check?.(draft) ?? {};
      const first = Object.keys(problems).find((name) => problems[name]);
      if (first) return void document.getElementById(id(first))?.focus();
      options.onSubmit(draft);
    },
    field: (name) => {
      const wrong = problem(name) !== null;
      return { id: id(name), 'aria-invalid': wrong, 'aria-describedby': wrong ? problemId(name) : undefined };
    },
    problem,
    problemId,
    formProblems: fromServer.rest,
    serverMarked: [...fromServer.byField.keys()].some((name) => !stale.has(name)),
  };
}

/** The server's BAD_USER_INPUT messages, each beside the field it names when that field is on the form. */
function serverProblems(error: unknown, fields: ReadonlySet<string>): { byField: Map<string, string>; rest: string[] } {
  const byField = new Map<string, string>();
  const rest: string[] = [];
  if (!(error instanceof GraphQLRequestError) || error.code !== 'BAD_USER_INPUT') return { byField, rest };
  for (const { message } of error.errors) {
    // A variable GraphQL could not coerce: 'Variable "$input" got invalid value 1.5 at "input.maxTokens"; Int cannot …'.
    const coercion = /^Variable "\$\w+" got invalid value .* at "([\w.]+)"; (.*)$/s.exec(message);
    const parts = coercion
      ? [{ path: coercion[1]!, text: coercion[2]! }]
      : message.split('; ').map((text) => ({ path: leadingPath(text), text }));
    for (const { path, text } of parts) {
      const field = path.split('.').find((segment) => fields.has(segment));
      if (field && !byField.has(field)) byField.set(field, text);
      else if (!field) rest.push(text);
    }
  }
  return { byField, rest };
}

/** The field a validation message starts with: "maxTokens must be …", "models.0.name: …". */
function leadingPath(text: string): string {
  return /^([A-Za-z][\w.]*)(?::|\s)/.exec(text)?.[1] ?? '';
}

const drafts = new Map<string, unknown>();
const listeners = new Set<() => void>();
let snapshot: readonly string[] = [];

function remember(key: string, draft: unknown) {
  const fresh = !drafts.has(key);
  drafts.set(key, draft);
  if (fresh) changed();
}

function forget(key: string) {
  if (drafts.delete(key)) changed();
}

function changed() {
  snapshot = [...drafts.keys()];
  for (const listener of listeners) listener();
}

/** The names of the forms holding unsaved drafts ("settings/memory", …): the tabs mark them. */
export function useUnsavedDrafts(): readonly string[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
  );
}

/** Drafts belong to the token that loaded them: signing out drops them. */
export function forgetAllDrafts() {
  drafts.clear();
  changed();
}
