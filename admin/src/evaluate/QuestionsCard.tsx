import { useState } from 'react';
import { ErrorNote } from '../components/ErrorNote';
import { ScrollRegion } from '../components/ScrollRegion';
import {
  type ImportEvaluationQuestionsMutation,
  useAddEvaluationQuestionMutation,
  useEditEvaluationQuestionMutation,
  useImportEvaluationQuestionsMutation,
  useRemoveEvaluationQuestionMutation,
} from '../generated/graphql';
import { type EvaluationSet, useInvalidateEvaluation } from './EvaluateTab';
import { MemorySearch, type PickedMemory } from './MemoryPicker';

/** The set's questions, a form to write one (its expected memories found by search), and a JSONL import. */
export function QuestionsCard({ apiKeyId, set }: { apiKeyId: string; set: EvaluationSet }) {
  return (
    <section className="card" aria-labelledby="ev-questions-title">
      <div className="card-head">
        <h2 id="ev-questions-title">Questions</h2>
        <span className="muted">
          {set.questionCount} in “{set.name}”
        </span>
      </div>
      {set.questions.length === 0 ? (
        <p className="muted">No question yet: write one below, import a JSONL file, or keep one from the Playground.</p>
      ) : (
        <QuestionTable apiKeyId={apiKeyId} set={set} />
      )}
      <div className="ev-write">
        <AddQuestion key={set.id} apiKeyId={apiKeyId} setId={set.id} />
        <ImportQuestions key={`import-${set.id}`} apiKeyId={apiKeyId} setId={set.id} />
      </div>
    </section>
  );
}

type Question = EvaluationSet['questions'][number];

function QuestionTable({ apiKeyId, set }: { apiKeyId: string; set: EvaluationSet }) {
  const [editing, setEditing] = useState<string | null>(null);
  const invalidate = useInvalidateEvaluation();
  const remove = useRemoveEvaluationQuestionMutation({ onSuccess: invalidate });
  return (
    <ScrollRegion label="Questions table">
      <table className="ev-table ev-questions">
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">Should find</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {set.questions.map((q) =>
            editing === q.id ? (
              <tr key={q.id}>
                <td colSpan={3}>
                  <EditQuestion apiKeyId={apiKeyId} question={q} onDone={() => setEditing(null)} />
                </td>
              </tr>
            ) : (
              <tr key={q.id}>
                <td className="ev-question">{q.question}</td>
                <td>
                  <ul className="ev-expected">
                    {q.expected.map((m) => (
                      <li key={m.id}>
                        {m.content === null ? (
                          <span className="badge warn" title={`Memory ${m.id}`}>
                            deleted memory
                          </span>
                        ) : (
                          <>
                            <code>{m.key}</code> <span className="muted">{m.content}</span>
                          </>
                        )}
                      </li>
                    ))}
                  </ul>
                  {q.gone.length > 0 && (
                    <p className="warn-text small-note">
                      {q.gone.length === q.expected.length
                        ? 'Every memory it expects was deleted: runs leave it out.'
                        : 'Some memories it expects were deleted: runs score it on the rest.'}
                    </p>
                  )}
                </td>
                <td className="num nowrap">
                  <button type="button" className="small ghost" aria-label={`Edit “${q.question}”`} onClick={() => setEditing(q.id)}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="small ghost"
                    aria-label={`Remove “${q.question}”`}
                    disabled={remove.isPending}
                    onClick={() => remove.mutate({ apiKeyId, questionId: q.id })}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
      <ErrorNote error={remove.error} />
    </ScrollRegion>
  );
}

function AddQuestion({ apiKeyId, setId }: { apiKeyId: string; setId: string }) {
  const [round, setRound] = useState(0);
  const invalidate = useInvalidateEvaluation();
  const add = useAddEvaluationQuestionMutation({
    onSuccess: async () => {
      // A fresh form for the next question.
      setRound((r) => r + 1);
      await invalidate();
    },
  });
  return (
    <div className="ev-add">
      <h3>Write a question</h3>
      <QuestionForm
        key={round}
        apiKeyId={apiKeyId}
        label="Write a question"
        submitLabel="Add question"
        busy={add.isPending}
        error={add.error}
        onSubmit={(question, expected) => add.mutate({ apiKeyId, setId, question, expected })}
      />
    </div>
  );
}

/** A question and the memories it should find, picked by search; also the edit of one. */
function QuestionForm(props: {
  apiKeyId: string;
  label: string;
  submitLabel: string;
  initial?: { question: string; expected: PickedMemory[] };
  busy: boolean;
  error: unknown;
  onSubmit: (question: string, expected: string[]) => void;
  onCancel?: () => void;
}) {
  const [question, setQuestion] = useState(props.initial?.question ?? '');
  const [expected, setExpected] = useState<PickedMemory[]>(props.initial?.expected ?? []);
  return (
    <form
      className="ev-question-form"
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit(
          question,
          expected.map((m) => m.id),
        );
      }}
    >
      <label className="field">
        <span>Question</span>
        <textarea
          rows={2}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          placeholder="e.g. Which editor theme do I like?"
        />
      </label>
      <MemorySearch
        apiKeyId={props.apiKeyId}
        label="Memory it should find"
        actionLabel="Expect"
        exclude={expected.map((m) => m.id)}
        onPick={(m) => setExpected((now) => [...now, m])}
      />
      {expected.length > 0 && (
        <ul className="ev-chosen" aria-label="Expected memories">
          {expected.map((m) => (
            <li key={m.id}>
              <code>{m.key || 'deleted memory'}</code>
              <button
                type="button"
                className="small ghost"
                aria-label={`Do not expect ${m.key || m.id}`}
                onClick={() => setExpected((now) => now.filter((o) => o.id !== m.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={props.busy || question.trim() === '' || expected.length === 0}>
          {props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" className="ghost" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
      <ErrorNote error={props.error} />
    </form>
  );
}

function EditQuestion({ apiKeyId, question, onDone }: { apiKeyId: string; question: Question; onDone: () => void }) {
  const invalidate = useInvalidateEvaluation();
  const edit = useEditEvaluationQuestionMutation({
    onSuccess: async () => {
      await invalidate();
      onDone();
    },
  });
  return (
    <QuestionForm
      apiKeyId={apiKeyId}
      label="Edit the question"
      submitLabel="Save question"
      initial={{
        question: question.question,
        expected: question.expected.map((m) => ({ id: m.id, key: m.key ?? '', content: m.content ?? '' })),
      }}
      busy={edit.isPending}
      error={edit.error}
      onSubmit={(text, expected) => edit.mutate({ apiKeyId, questionId: question.id, question: text, expected })}
      onCancel={onDone}
    />
  );
}

function ImportQuestions({ apiKeyId, setId }: { apiKeyId: string; setId: string }) {
  const [jsonl, setJsonl] = useState('');
  const [report, setReport] = useState<ImportEvaluationQuestionsMutation['importEvaluationQuestions'] | null>(null);
  const invalidate = useInvalidateEvaluation();
  const run = useImportEvaluationQuestionsMutation({
    onSuccess: async (data) => {
      setReport(data.importEvaluationQuestions);
      if (data.importEvaluationQuestions.errors.length === 0) setJsonl('');
      await invalidate();
    },
  });
  return (
    <form
      className="ev-import"
      aria-label="Import questions"
      onSubmit={(e) => {
        e.preventDefault();
        setReport(null);
        run.mutate({ apiKeyId, setId, jsonl });
      }}
    >
      <h3>Import JSONL</h3>
      <label className="field">
        <span>One question per line</span>
        <textarea
          rows={4}
          className="mono"
          spellCheck={false}
          value={jsonl}
          onChange={(e) => setJsonl(e.target.value)}
          placeholder={'{"question": "Where do I live?", "expected": ["home-city"]}'}
        />
        <span className="field-hint">Expected memories are named by id or key. A line that cannot be added is reported; the rest are.</span>
      </label>
      <div className="actions">
        <label className="linkish ev-file">
          <input
            type="file"
            accept=".jsonl,.json,.txt,application/jsonl"
            className="sr-only"
            onChange={async (e) => setJsonl(await (e.target.files?.[0]?.text() ?? Promise.resolve('')))}
          />
          <span>Read a file…</span>
        </label>
        <button type="submit" disabled={run.isPending || jsonl.trim() === ''}>
          Import
        </button>
      </div>
      <ErrorNote error={run.error} />
      {report && (
        <div role="status" className="ev-import-report">
          <p>
            {report.imported.length} {report.imported.length === 1 ? 'question' : 'questions'} added
            {report.errors.length > 0 ? `, ${report.errors.length} ${report.errors.length === 1 ? 'line' : 'lines'} not:` : '.'}
          </p>
          {report.errors.length > 0 && (
            <ul>
              {report.errors.map((e) => (
                <li key={e.line}>
                  Line {e.line}: {e.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
