// Claude's question (AskUserQuestion): each question with its header and clickable options (several where it
// allows several), and "Other" with free text. One single-choice question is answered by the click itself; more
// take a Submit; digits pick options and arrows move between them while the card has the focus. The answers
// reach the tool in the form it expects (question text → answer).
import { useState } from 'react';
import type { QuestionAnswer } from '../../protocol/events';
import { useStore } from '../../store/hooks';
import type { PermissionItem } from '../../store/types';
import { digitOf, moveAmongButtons } from './cardKeys';
import { joinChoices, type Question, readQuestions } from './interactive';

const SKIP_MESSAGE = 'The user skipped the question; carry on with your best judgement or ask in the chat.';

interface Choice {
  picked: string[];
  other: string;
  otherOn: boolean;
}

function answerOf(q: Question, c: Choice | undefined): string | undefined {
  if (c === undefined) return undefined;
  const all = [...c.picked, ...(c.otherOn && c.other.trim() !== '' ? [c.other.trim()] : [])];
  return all.length > 0 ? joinChoices(q.multiSelect ? all : all.slice(-1)) : undefined;
}

export function QuestionCard({ sessionId, item }: { sessionId: string; item: PermissionItem }) {
  const store = useStore();
  const questions = readQuestions(item.input);
  const [choices, setChoices] = useState<Record<number, Choice>>({});
  const [sent, setSent] = useState(false);
  const submit = (answers: QuestionAnswer[] | undefined) => {
    setSent(true);
    const done =
      answers !== undefined
        ? store.answerPermission(sessionId, item.requestId, 'allow', { answers })
        : store.answerPermission(sessionId, item.requestId, 'deny', { message: SKIP_MESSAGE });
    void done.finally(() => setSent(false));
  };
  const answers = questions.map((q, i) => answerOf(q, choices[i]));
  const complete = answers.every((a) => a !== undefined);
  const collect = (): QuestionAnswer[] => questions.map((q, i) => ({ question: q.question, answer: answers[i] ?? '' }));
  const change = (i: number, next: Choice) => setChoices((c) => ({ ...c, [i]: next }));
  const pick = (i: number, q: Question, label: string) => {
    const now = choices[i] ?? { picked: [], other: '', otherOn: false };
    if (q.multiSelect) {
      const picked = now.picked.includes(label) ? now.picked.filter((l) => l !== label) : [...now.picked, label];
      change(i, { ...now, picked });
      return;
    }
    // One question, one choice: the click is the answer.
    if (questions.length === 1) {
      submit([{ question: q.question, answer: label }]);
      return;
    }
    change(i, { ...now, picked: [label], otherOn: false });
  };
  return (
    <div
      className="permission-card question-card"
      role="group"
      tabIndex={-1}
      aria-label="Claude asks"
      data-testid="question-card"
      data-request={item.requestId}
      onKeyDown={(e) => {
        // As in the CLI: a digit picks that option of the question with the focus (the first one otherwise),
        // arrows move between the choices.
        const n = digitOf(e);
        if (n !== undefined) {
          const question = (e.target instanceof Element ? e.target.closest('fieldset') : null) ?? e.currentTarget.querySelector('fieldset');
          const option = question?.querySelectorAll<HTMLButtonElement>('.question-options button')[n - 1];
          if (option === undefined || option.disabled) return;
          e.preventDefault();
          option.focus();
          option.click();
        } else if (moveAmongButtons(e, e.currentTarget)) {
          e.preventDefault();
        }
      }}
    >
      {questions.map((q, i) => {
        const c = choices[i];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: two questions may have the same text; the place tells them apart.
          <fieldset key={`${i}-${q.question}`} className="question" disabled={sent}>
            <legend>
              {q.header !== '' && <span className="chip">{q.header}</span>} <strong>{q.question}</strong>
              {q.multiSelect && <span className="muted small"> (choose any)</span>}
            </legend>
            <div className="question-options">
              {q.options.map((o) => {
                const on = c?.picked.includes(o.label) === true;
                return (
                  <button
                    key={o.label}
                    type="button"
                    className={`option${on ? ' selected' : ''}`}
                    aria-pressed={on}
                    onClick={() => pick(i, q, o.label)}
                    data-testid="question-option"
                  >
                    <span className="option-label">{o.label}</span>
                    {o.description !== '' && <span className="muted small option-description">{o.description}</span>}
                  </button>
                );
              })}
              <button
                type="button"
                className={`option${c?.otherOn === true ? ' selected' : ''}`}
                aria-pressed={c?.otherOn === true}
                onClick={() => change(i, { picked: q.multiSelect ? (c?.picked ?? []) : [], other: c?.other ?? '', otherOn: !(c?.otherOn ?? false) })}
              >
                <span className="option-label">Other…</span>
              </button>
            </div>
            {c?.otherOn === true && (
              <input
                autoFocus
                type="text"
                aria-label={`Your own answer: ${q.question}`}
                placeholder="Your answer"
                value={c.other}
                onChange={(e) => change(i, { ...c, other: e.target.value })}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && complete) {
                    e.preventDefault();
                    submit(collect());
                  }
                }}
              />
            )}
          </fieldset>
        );
      })}
      <div className="permission-buttons">
        {(questions.length > 1 || questions.some((q) => q.multiSelect) || Object.values(choices).some((c) => c.otherOn)) && (
          <button type="button" className="primary" disabled={sent || !complete} onClick={() => submit(collect())} data-testid="question-submit">
            Answer
          </button>
        )}
        <button type="button" disabled={sent} onClick={() => submit(undefined)}>
          Skip
        </button>
        {questions.length === 0 && <span className="muted small">Claude’s question could not be read; skip it and answer in the chat.</span>}
      </div>
    </div>
  );
}
