// A free TCP port on loopback, for a server a test starts with a port it must know beforehand
// (HAProxy's backends, a node started again on its old port). Servers that can report their
// own port listen on port 0 instead.
import { createServer } from 'node:net';

export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}
