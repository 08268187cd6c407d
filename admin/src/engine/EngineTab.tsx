export function EngineTab() {
  return <p className="muted">Engine</p>;
}
