import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP hop in front of the API that lets the first connection's request through and cuts that connection
 * (RST) the moment the API's answer comes back, so the answer never reaches the client: the request was
 * processed, the client saw a dropped connection. Later connections are relayed untouched.
 */
export class DropFirstResponseProxy {
  /** Connections accepted, in order. */
  connections = 0;
  /** Answers thrown away. */
  dropped = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(private readonly targetPort: number) {
    this.server = createServer((client) => this.relay(client));
  }

  static async start(targetPort: number): Promise<DropFirstResponseProxy> {
    const proxy = new DropFirstResponseProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket): void {
    this.connections += 1;
    const dropThisAnswer = this.connections === 1;
    const upstream = connect(this.targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined); // a reset is the point, not a failure of the test
      socket.on('close', () => this.sockets.delete(socket));
    }
    client.pipe(upstream);
    if (dropThisAnswer) {
      upstream.once('data', () => {
        this.dropped += 1;
        client.resetAndDestroy();
        upstream.destroy();
      });
    } else {
      upstream.pipe(client);
      upstream.on('close', () => client.end());
      client.on('close', () => upstream.end());
    }
  }
}
