import { ForgetKeyCard } from './ForgetKeyCard';
import { ImportCard } from './ImportCard';
import { PurgeCard } from './PurgeCard';
import './lifecycle.css';

/** The data lifecycle: memories brought in from another system, an API key erased for good, what retention hides and when the purge deletes it. */
export function DataTab() {
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Data</h1>
          <p className="muted">
            Import memories from another system, erase an API key for good, and see what retention hides and when the purge deletes it.
          </p>
        </div>
      </div>
      <ImportCard />
      <ForgetKeyCard />
      <PurgeCard />
    </>
  );
}
