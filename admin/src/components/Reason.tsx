/**
 * A server's explanation ("auto: remote skipped (x; y); static model m from /path") made readable: split at
 * its top-level semicolons into a list, with a leading "auto:" or "embeddingSource is STATIC:" kept as a lead.
 */
export function Reason({ text, className = 'reason' }: { text: string; className?: string }) {
  const lead = /^([A-Za-z]+(?: is [A-Z]+)?):\s/.exec(text);
  const rest = lead ? text.slice(lead[0].length) : text;
  const parts = splitTopLevel(rest);
  if (parts.length < 2) return <div className={className}>{text}</div>;
  return (
    <div className={className}>
      {lead && <span>{lead[1]}:</span>}
      <ul>
        {parts.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed split of one text; a part's place is its identity.
          <li key={i}>{p}</li>
        ))}
      </ul>
    </div>
  );
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}
