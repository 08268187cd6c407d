import type { ReactNode } from 'react';

/** A card that is a section of its page: a heading (its accessible name), a line under it, and its actions on the right. */
export function Card({
  titleId,
  title,
  sub,
  actions,
  children,
}: {
  titleId: string;
  title: string;
  sub: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card-head">
        <div>
          <h2 id={titleId}>{title}</h2>
          <p className="muted card-sub">{sub}</p>
        </div>
        {actions && (
          <>
            <span className="spacer" />
            {actions}
          </>
        )}
      </div>
      {children}
    </section>
  );
}
