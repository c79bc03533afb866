package io.hotrank.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * HTTP/1.1 over a plain socket, for requests no HTTP client sends as written: paths with {@code ..}
 * or escapes left alone, a declared length the body never reaches, a body that keeps coming. A
 * guard timeout makes a server that never answers fail the test rather than hang it.
 */
public final class RawHttp implements AutoCloseable {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  public RawHttp(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(30_000);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** One request as written, {@code Host} and {@code Connection: close} added, then its answer. */
  public static Answer exchange(int port, String method, String path, String... headers)
      throws IOException {
    try (RawHttp http = new RawHttp(port)) {
      StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
      head.append("Host: 127.0.0.1\r\nConnection: close\r\n");
      for (int i = 0; i + 1 < headers.length; i += 2) {
        head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
      }
      http.send(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      return http.answer();
    }
  }

  /** Sends bytes as they are. */
  public void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /**
   * Reads one answer: its head, then a body of its {@code Content-Length}, or a chunked one, or
   * (for HEAD and bodiless answers) none.
   */
  public Answer answer() throws IOException {
    String head = readHead();
    String[] lines = head.split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(
          lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).strip());
    }
    byte[] body;
    if (headers.containsKey("content-length")) {
      body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
    } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      ByteArrayOutputStream chunks = new ByteArrayOutputStream();
      for (int size; (size = Integer.parseInt(readLine(), 16)) > 0; ) {
        chunks.write(in.readNBytes(size));
        readLine();
      }
      readLine();
      body = chunks.toByteArray();
    } else {
      body = new byte[0];
    }
    return new Answer(status, headers, body);
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed after " + head.size() + " bytes of a head");
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.ISO_8859_1).strip();
  }

  private String readLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b; (b = in.read()) != '\n'; ) {
      if (b < 0) {
        throw new IOException("connection closed in a chunked body");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1).strip();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** An answer: status, headers by lower-case name, body. */
  public record Answer(int status, Map<String, String> headers, byte[] body) {

    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    public JsonNode json() {
      return JSON.readTree(body);
    }

    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }
}
