import { ExportCard } from './ExportCard';
import { ForgetKeyCard } from './ForgetKeyCard';
import { ImportCard } from './ImportCard';
import { PurgeCard } from './PurgeCard';
import './lifecycle.css';

/** The data lifecycle: export everything, import from another system, erase an API key for good, and what retention hides and when the purge deletes it. */
export function DataTab() {
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Data</h1>
          <p className="muted">
            Export everything, import memories from another system, erase an API key for good, and see what retention hides and when the
            purge deletes it.
          </p>
        </div>
      </div>
      <ExportCard />
      <ImportCard />
      <ForgetKeyCard />
      <PurgeCard />
    </>
  );
}
