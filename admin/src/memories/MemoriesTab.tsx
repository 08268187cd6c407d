export function MemoriesTab() {
  return <p className="muted">Memories</p>;
}
