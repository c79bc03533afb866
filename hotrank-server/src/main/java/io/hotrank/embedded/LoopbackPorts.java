package io.hotrank.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** Free loopback ports for the servers this service, or a test, starts and may start again. */
public final class LoopbackPorts {

  private LoopbackPorts() {}

  /** The lowest port the search for a free one tries. */
  private static final int LOWEST_PORT = 10_000;

  /**
   * A free loopback port below the kernel's ephemeral range (Linux's {@code ip_local_port_range},
   * 32768 and up by default), else any free one. Below that range, no outgoing connection is ever
   * given the port as its own while the server is stopped, so the restart on the same port (after
   * the test context cache stopped the context) finds it free: a port the kernel hands out, as
   * {@code new ServerSocket(0)} does, was once taken by a client connection meanwhile.
   */
  public static int free() {
    int below = ephemeralLow();
    java.util.concurrent.ThreadLocalRandom random =
        java.util.concurrent.ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 100 && below > LOWEST_PORT + 1; attempt++) {
      int port = random.nextInt(LOWEST_PORT, below);
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        return socket.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free loopback port", e);
    }
  }

  /** The first port of the kernel's ephemeral range; 32768 where it cannot be read. */
  private static int ephemeralLow() {
    try {
      String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).strip();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }
}
