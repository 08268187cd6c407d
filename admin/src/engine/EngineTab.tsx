import { EmbeddingSettings, RerankSettings } from './ModelSettings';
import { ProvidersCard } from './ProvidersCard';
import { QdrantPanel } from './QdrantPanel';
import { ReindexPanel } from './ReindexPanel';
import { StatusPanel } from './StatusPanel';

/** The retrieval engine: what each part can do now, reindex jobs, and where embeddings and rerank come from. */
export function EngineTab() {
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Engine</h1>
          <p className="muted">How retrieval finds memories: the keyword index, embeddings, the vector store and rerank.</p>
        </div>
      </div>
      <StatusPanel />
      <ReindexPanel />
      <QdrantPanel />
      <div className="engine-settings">
        <EmbeddingSettings />
        <RerankSettings />
      </div>
      <ProvidersCard />
    </>
  );
}
