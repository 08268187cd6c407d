import type { ReactNode } from 'react';

/**
 * A table (or anything wide) that scrolls sideways inside its own box on a narrow screen instead of making the page
 * scroll: a named region with a tab stop, so it can be scrolled from the keyboard too.
 */
export function ScrollRegion({ label, className = 'table-scroll', children }: { label: string; className?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled by keyboard (WCAG 2.1.1).
    <section className={className} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
