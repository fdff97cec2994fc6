import { connect, createServer, type Socket } from 'node:net';

export interface Balancer {
  port: number;
  close(): Promise<void>;
}

/**
 * What a Kubernetes Service does for the gateways, for the local stack with replicas: each TCP
 * connection goes to the next gateway in turn, and to the one after when that one does not accept
 * (stopped or restarting). Connection by connection, so a keep-alive client stays on one gateway.
 */
export async function startBalancer(port: number, targets: () => number[]): Promise<Balancer> {
  let next = 0;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const forward = (client: Socket, tried: number) => {
    const ports = targets();
    if (tried >= ports.length) {
      client.destroy();
      return;
    }
    const target = ports[next++ % ports.length] as number;
    const upstream = connect(target, '127.0.0.1');
    track(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.pipe(upstream).pipe(client);
      client.once('error', () => upstream.destroy());
      upstream.once('error', () => client.destroy());
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
    upstream.once('error', () => {
      // Refused before anything was forwarded: the next gateway takes the connection.
      if (!connected) forward(client, tried + 1);
    });
  };
  const server = createServer((client) => {
    track(client);
    // Paused until an upstream accepts: its pipe resumes it, so no byte is read before it can go somewhere.
    client.pause();
    forward(client, 0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
