package io.hotrank.embedded;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A raw Redis connection speaking RESP, for tests that must see exactly what Redis answers a client
 * that gives no password, or a wrong one: no client library in between.
 */
final class RespClient implements AutoCloseable {

  private final Socket socket = new Socket();
  private final OutputStream out;
  private final InputStream in;

  RespClient(int port) throws IOException {
    socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
    socket.setSoTimeout(10_000);
    out = socket.getOutputStream();
    in = new BufferedInputStream(socket.getInputStream());
  }

  /**
   * Sends one command; its answer as text: {@code +OK}, {@code -NOAUTH ...}, {@code :1}, a bulk
   * string's content, or an array's elements joined by spaces.
   */
  String command(String... args) throws IOException {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    request.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
    for (String arg : args) {
      byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
      request.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      request.write(bytes);
      request.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    out.write(request.toByteArray());
    out.flush();
    return reply();
  }

  private String reply() throws IOException {
    String line = line();
    switch (line.charAt(0)) {
      case '$' -> {
        int length = Integer.parseInt(line.substring(1));
        if (length < 0) {
          return "(nil)";
        }
        String value = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        line(); // CRLF
        return value;
      }
      case '*' -> {
        int count = Integer.parseInt(line.substring(1));
        List<String> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          items.add(reply());
        }
        return String.join(" ", items);
      }
      default -> {
        return line;
      }
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
