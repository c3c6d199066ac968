import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP hop between an app and a server, so a test can break the network deterministically: `reset()`
 * cuts every open connection with a TCP RST (as a restarted firewall or load balancer does), and in
 * `blackhole` mode connections are accepted but nothing is forwarded (a request that never arrives).
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(
    private readonly targetPort: number,
    readonly mode: 'forward' | 'blackhole',
  ) {
    this.server = createServer((client) => {
      this.relay(client);
    });
  }

  static async start(targetPort: number, mode: 'forward' | 'blackhole' = 'forward'): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetPort, mode);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** Cuts every open connection with a RST, both ways. */
  reset(): void {
    for (const socket of this.sockets) if (!socket.destroyed) socket.resetAndDestroy();
  }

  async close(): Promise<void> {
    this.reset();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket): void {
    this.track(client);
    if (this.mode === 'blackhole') {
      client.resume(); // read and drop: the sender believes its request is on its way
      return;
    }
    const upstream = connect(this.targetPort, '127.0.0.1');
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const cut = (socket: Socket) => () => {
      if (!socket.destroyed) socket.resetAndDestroy();
    };
    upstream.on('error', cut(client));
    client.on('error', cut(upstream));
    upstream.on('close', () => client.end());
    client.on('close', () => upstream.end());
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined); // a reset is the point, not a failure of the test
    socket.on('close', () => this.sockets.delete(socket));
  }
}
