import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on: free a moment ago, and closed again. For a server to start on (the throwaway
 * PostgreSQL cluster), or for a client to find no server at (a refused connection).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
