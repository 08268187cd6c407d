export function PlaygroundTab() {
  return <p className="muted">Playground</p>;
}
