import { type FormEvent, useId, useState } from 'react';
import { formatNumber } from './format';
import { pageItems } from './paging';
import { PAGE_SIZES } from './useMemoryListState';

interface Props {
  page: number;
  pageSize: number;
  totalCount: number;
  /** The rows on screen (offset and count of the data shown), which lag the requested page while it loads. */
  shown: { offset: number; count: number };
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}

/** Page size, previous/next, numbered pages with gaps, and a "go to page" box. */
export function Pager({ page, pageSize, totalCount, shown, onPage, onPageSize }: Props) {
  const pages = Math.max(1, Math.ceil(totalCount / pageSize));
  const first = totalCount === 0 ? 0 : shown.offset + 1;
  const last = shown.offset + shown.count;
  const [jump, setJump] = useState('');
  const jumpTo = Number(jump);
  const jumpValid = jump !== '' && Number.isInteger(jumpTo) && jumpTo >= 1 && jumpTo <= pages;
  const jumpHint = useId();

  function submitJump(event: FormEvent) {
    event.preventDefault();
    if (!jumpValid) return;
    onPage(jumpTo);
    setJump('');
  }

  return (
    <div className="mem-pager">
      <p className="muted mem-range" aria-live="polite">
        {totalCount === 0 ? 'No memories' : `${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(totalCount)}`}
      </p>
      <label className="mem-inline-field">
        <span>Rows per page</span>
        <select value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <nav className="pager" aria-label="Pages">
        <button type="button" className="small" onClick={() => onPage(page - 1)} disabled={page <= 1}>
          Previous
        </button>
        {pageItems(page, pages).map((item) =>
          typeof item === 'number' ? (
            <button
              key={item}
              type="button"
              className="small mem-page"
              aria-label={`Page ${item}`}
              aria-current={item === page ? 'page' : undefined}
              onClick={() => onPage(item)}
            >
              {item}
            </button>
          ) : (
            <span key={item} className="mem-gap" aria-hidden="true">
              …
            </span>
          ),
        )}
        <button type="button" className="small" onClick={() => onPage(page + 1)} disabled={page >= pages}>
          Next
        </button>
      </nav>
      <form className="mem-jump" onSubmit={submitJump} aria-label="Jump to a page" noValidate>
        <label className="mem-inline-field">
          <span>Go to page</span>
          <input
            inputMode="numeric"
            value={jump}
            onChange={(e) => setJump(e.target.value)}
            aria-invalid={jump !== '' && !jumpValid}
            aria-describedby={jumpHint}
            className="mem-jump-input"
          />
        </label>
        <span id={jumpHint} className="mem-sr-only">
          1 to {pages}
        </span>
        <button type="submit" className="small" disabled={!jumpValid}>
          Go
        </button>
      </form>
    </div>
  );
}
