package io.hotrank.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on loopback in front of several instances, for clients that send one request per
 * connection ({@code Connection: close}): each connection goes to the next instance in turn, and
 * every {@code every}-th one has its answer dropped: the proxy forwards the request, reads the
 * instance's whole answer (so the request reached the service and ran), and closes the client's
 * connection without a byte of it, as a proxy timing out or a pod restarting would.
 */
public final class AnswerDroppingProxy implements AutoCloseable {

  private final ServerSocket server;
  private final List<Integer> upstreams;
  private final int every;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger dropped = new AtomicInteger();
  private final Thread acceptor;

  public AnswerDroppingProxy(List<Integer> upstreams, int every) throws IOException {
    this.upstreams = List.copyOf(upstreams);
    this.every = every;
    this.server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    this.acceptor = Thread.ofPlatform().name("dropping-proxy").daemon().start(this::accept);
  }

  public int port() {
    return server.getLocalPort();
  }

  /** How many answers were dropped so far. */
  public int dropped() {
    return dropped.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      int n = connections.incrementAndGet();
      int upstream = upstreams.get(n % upstreams.size());
      boolean drop = n % every == 0;
      Thread.ofVirtual().start(() -> relay(client, upstream, drop));
    }
  }

  private void relay(Socket client, int port, boolean drop) {
    try (client;
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), port)) {
      client.setSoTimeout(60_000);
      upstream.setSoTimeout(60_000);
      Thread requests =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      client.getInputStream().transferTo(upstream.getOutputStream());
                    } catch (IOException e) {
                      // The client or the instance closed: the answer side sees it too.
                    }
                  });
      InputStream answer = upstream.getInputStream();
      if (drop) {
        answer.transferTo(OutputStream.nullOutputStream());
        dropped.incrementAndGet();
      } else {
        answer.transferTo(client.getOutputStream());
      }
      client.close();
      requests.join();
    } catch (IOException e) {
      // A broken connection is the client's to see.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    try {
      acceptor.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
