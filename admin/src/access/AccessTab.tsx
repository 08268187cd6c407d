export function AccessTab() {
  return <p className="muted">Access</p>;
}
