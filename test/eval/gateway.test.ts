import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeOf } from '../../eval/datasets.ts';
import { evaluateGatewayFolder, formatGatewayReport, type GatewayReport, holdsEvidence } from '../../eval/gateway.ts';

type Turn = { role: 'user' | 'assistant'; content: string; has_answer: boolean };
const u = (content: string, has_answer = false): Turn => ({ role: 'user', content, has_answer });
const a = (content: string, has_answer = false): Turn => ({ role: 'assistant', content, has_answer });

function question(id: string, type: string, text: string, answer: string, date: string, turns: Turn[]) {
  return {
    question_id: id,
    question_type: type,
    question: text,
    answer,
    question_date: '2023/05/30 (Tue) 10:00',
    haystack_dates: [date],
    haystack_session_ids: [`answer_${id}`],
    haystack_sessions: [turns],
  };
}

/**
 * q1: the user states a preference that extraction keeps as a fact holding the answer's words.
 * q2: the evidence is the assistant's answer, which a gateway with includeAssistant off never mines.
 */
const FILES = {
  '1_gw01.json': question('gw01', 'single-session-preference', 'Which drink do I prefer?', 'green tea', '2023/05/20 (Sat) 09:00', [
    u('Good morning! I prefer green tea over coffee.', true),
    a('Noted: green tea it is.'),
    u('Can you suggest a weekly meal plan with lentils?'),
    a('Sure: lentil soup on Monday, dal on Wednesday, salad on Friday.'),
  ]),
  '1_gw02.json': question(
    'gw02',
    'single-session-assistant',
    'Which soup did you suggest for Monday?',
    'lentil soup',
    '2023/05/21 (Sun) 09:00',
    [u('Can you plan my meals?'), a('Lentil soup on Monday, then pasta.', true)],
  ),
};

let dir: string;
let report: GatewayReport;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-gateway-test-'));
  for (const [name, body] of Object.entries(FILES)) writeFileSync(path.join(dir, name), JSON.stringify(body));
  report = await evaluateGatewayFolder(dir, { ks: [1, 5], captures: ['OFF'] });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (mode: string) => report.rows.find((r) => r.mode === mode)!;
const typeRow = (mode: string, type: string) => row(mode).byType.find((t) => t.group === type)!;

describe('eval in gateway mode', () => {
  it('runs the direct import beside each capture mode asked for', () => {
    expect(report.rows.map((r) => r.mode)).toEqual(['direct', 'OFF']);
    expect(report.questions).toBe(2);
  });

  it('direct import stores one memory per turn; the replay with capture off stores only the extracted fact', () => {
    expect(row('direct').turns).toBe(6);
    expect(row('direct').stored.memories).toBe(6);
    expect(row('OFF').stored.memories).toBe(1);
    expect(row('OFF').stored.bytes).toBeLessThan(row('direct').stored.bytes);
  });

  it('a fact holding the words of the answer is found in the block and first in the list', () => {
    const preference = typeRow('OFF', 'single-session-preference');
    expect(preference.inStore).toBe(1);
    expect(preference.hitAt[1]).toBe(1);
    expect(preference.inBlock).toBe(1);
    expect(preference.tokens).toBeGreaterThan(0);
  });

  it('evidence the assistant said is not stored, so not found, when only facts are stored', () => {
    const assistant = typeRow('OFF', 'single-session-assistant');
    expect(assistant.inStore).toBe(0);
    expect(assistant.hitAt[5]).toBe(0);
    expect(assistant.inBlock).toBe(0);
    expect(typeRow('direct', 'single-session-assistant').inBlock).toBe(1);
  });

  it('the Markdown report has one overall row per mode and one row per question type and mode', () => {
    const lines = formatGatewayReport(report).split('\n');
    expect(lines.filter((l) => l.startsWith('| direct import'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('| gateway, capture OFF (facts only)'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('| single-session-'))).toHaveLength(4);
  });

  it('refuses data without conversations', async () => {
    const beir = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-gateway-beir-'));
    try {
      writeFileSync(path.join(beir, 'corpus.jsonl'), '{"_id":"d1","text":"x"}\n');
      writeFileSync(path.join(beir, 'queries.jsonl'), '{"_id":"q1","text":"x"}\n');
      await expect(evaluateGatewayFolder(beir)).rejects.toThrow(/replays conversations, which beir data has not/);
    } finally {
      rmSync(beir, { recursive: true, force: true });
    }
  });
});

describe('holdsEvidence', () => {
  const evidence = { turns: ['I prefer green tea over coffee.'], answerWords: ['green', 'tea'] };

  it('a memory holding an evidence turn whole holds the evidence', () => {
    expect(holdsEvidence({ content: 'I  prefer green tea\nover coffee.', metadata: {} }, evidence)).toBe(true);
  });

  it('an extracted fact holds it when it has every word of the answer', () => {
    expect(holdsEvidence({ content: 'Prefers green tea', metadata: { source: 'extraction' } }, evidence)).toBe(true);
    expect(holdsEvidence({ content: 'Prefers green apples', metadata: { source: 'extraction' } }, evidence)).toBe(false);
  });

  it('the answer words count only in an extracted fact', () => {
    expect(holdsEvidence({ content: 'green tea', metadata: {} }, evidence)).toBe(false);
  });
});

describe('timeOf', () => {
  it('is the session date plus a second per turn, or null for an undated session', () => {
    const date = new Date('2023-05-20T09:00:00Z');
    expect(timeOf({ key: 'k', content: 'x', createdAt: date, metadata: { turn: 3 } })).toBe(date.getTime() + 3000);
    expect(timeOf({ key: 'k', content: 'x', metadata: { turn: 3 } })).toBeNull();
  });
});
