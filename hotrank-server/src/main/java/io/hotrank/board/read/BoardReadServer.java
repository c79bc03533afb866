package io.hotrank.board.read;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardNotFoundException;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.problem.HotrankException;
import io.hotrank.problem.InvalidRequestException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import io.hotrank.web.ProblemRenderer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * An optional second listener ({@code hotrank.read-server.port}) that serves only {@code GET
 * /api/v1/boards/{name}}, on Netty instead of the servlet container, for deployments where board
 * reads dominate: a local hit is one lookup and one write of pre-rendered bytes on the event loop.
 * Answers match the main port's (same body bytes, same headers, same problem responses); a local
 * miss, which may wait on Redis or the database, runs on a virtual thread, never on the event loop.
 * Other paths answer 404.
 *
 * <p>Why: Tomcat's per-request HTTP processing, not hotrank's code, bounds the servlet path's
 * throughput (profiled in BENCHMARKS.md).
 */
final class BoardReadServer implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(BoardReadServer.class);
  private static final String PREFIX = BoardReadFilter.PREFIX;

  private final BoardRegistry registry;
  private final BoardReader reader;
  private final BoardHttp http;
  private final String address;
  private final int port;
  private final int threads;
  private final ConfigurableEnvironment environment;
  // Made at each start: a stopped server can be started again (Spring's test context cache stops
  // the lifecycle beans of a context it is not using and starts them when a test takes it back).
  private volatile ExecutorService misses = Executors.newVirtualThreadPerTaskExecutor();
  private @Nullable EventLoopGroup group;
  private @Nullable Channel channel;

  BoardReadServer(
      BoardRegistry registry,
      BoardReader reader,
      BoardHttp http,
      ConfigurableEnvironment environment,
      ReadServerProperties properties) {
    this.environment = environment;
    this.registry = registry;
    this.reader = reader;
    this.http = http;
    this.address = properties.address();
    this.port = properties.port() == null ? 0 : properties.port();
    this.threads = properties.threads();
  }

  @Override
  public synchronized void start() {
    if (misses.isShutdown()) {
      misses = Executors.newVirtualThreadPerTaskExecutor();
    }
    group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
    ChannelHandler handler = new ReadHandler();
    try {
      channel =
          new ServerBootstrap()
              .group(group)
              .channel(NioServerSocketChannel.class)
              .option(ChannelOption.SO_BACKLOG, 1024)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(
                              new HttpServerCodec(), new HttpServerKeepAliveHandler(), handler);
                    }
                  })
              .bind(new InetSocketAddress(address, port))
              .sync()
              .channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while binding the read server", e);
    }
    // Like local.server.port for the main port: tells tests and tools where it listens.
    environment
        .getPropertySources()
        .addFirst(
            new MapPropertySource(
                "hotrank-read-server", Map.of("local.read-server.port", boundPort())));
    log.info("Board read server listening on {}", channel.localAddress());
  }

  /** The bound port (useful when configured as 0). */
  int boundPort() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public synchronized void stop() {
    if (channel != null) {
      channel.close().syncUninterruptibly();
    }
    if (group != null) {
      group.shutdownGracefully().syncUninterruptibly();
    }
    misses.shutdownNow();
  }

  @Override
  public boolean isRunning() {
    return channel != null && channel.isOpen();
  }

  @ChannelHandler.Sharable
  private final class ReadHandler extends SimpleChannelInboundHandler<HttpObject> {

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
      if (!(msg instanceof HttpRequest request)) {
        return; // request bodies are ignored; GET has none
      }
      QueryStringDecoder uri = new QueryStringDecoder(request.uri());
      String path = uri.path();
      if ((request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD)
          || !path.startsWith(PREFIX)
          || path.indexOf('/', PREFIX.length()) >= 0) {
        write(
            ctx,
            request,
            problem(
                path,
                Problem.of(
                    ProblemType.NOT_FOUND, "This port serves GET " + PREFIX + "{name} only")));
        return;
      }
      String name = path.substring(PREFIX.length());
      BoardDefinition board = registry.find(name).orElse(null);
      if (board == null) {
        write(ctx, request, problem(path, new BoardNotFoundException(name).problem()));
        return;
      }
      if (parameterValue(uri, "cursor") != null) {
        write(
            ctx,
            request,
            problem(
                path, new InvalidRequestException("cursor", BoardHttp.CURSOR_MESSAGE).problem()));
        return;
      }
      Integer limit;
      Integer offset;
      try {
        limit = parameter(uri, "limit");
        offset = parameter(uri, "offset");
      } catch (NumberFormatException e) {
        String field = isInteger(parameterValue(uri, "limit")) ? "offset" : "limit";
        write(ctx, request, problem(path, Problem.invalid(field, "must be an integer")));
        return;
      }
      BoardHttp.Window window = http.window(board, limit, offset);
      if (window == null) {
        try {
          http.refuse(board, limit, offset);
        } catch (HotrankException e) {
          write(ctx, request, problem(path, e.problem()));
        }
        return;
      }
      BoardSnapshot snapshot = reader.local(name);
      if (snapshot != null) {
        write(ctx, request, board(snapshot, BoardReader.Source.LOCAL, request, window));
        return;
      }
      // A local miss may wait on Redis or the database: never on the event loop.
      misses.execute(
          () -> {
            FullHttpResponse response;
            try {
              BoardReader.Served served = reader.read(name);
              response = board(served.snapshot(), served.source(), request, window);
            } catch (HotrankException e) {
              response = problem(path, e.problem());
            } catch (RuntimeException e) {
              log.error("Board read failed on the read server", e);
              response = problem(path, Problem.internal());
            }
            FullHttpResponse answer = response;
            ctx.executor().execute(() -> write(ctx, request, answer));
          });
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // A client going away is routine; anything else closed a connection without an answer.
      if (cause instanceof java.io.IOException) {
        log.debug("Read server connection closed after an error: {}", cause.toString());
      } else {
        log.warn("Read server connection closed after an unexpected error", cause);
      }
      ctx.close();
    }
  }

  private FullHttpResponse board(
      BoardSnapshot snapshot,
      BoardReader.Source source,
      HttpRequest request,
      BoardHttp.Window window) {
    boolean notModified =
        BoardHttp.notModified(
            request.headers().get(HttpHeaderNames.IF_NONE_MATCH), snapshot.etag());
    FullHttpResponse response =
        notModified
            ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_MODIFIED)
            : new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(snapshot.body(window.offset(), window.limit())));
    HttpHeaders headers = response.headers();
    headers.set(HttpHeaderNames.ETAG, snapshot.etag());
    headers.set(HttpHeaderNames.CACHE_CONTROL, http.cacheControl(snapshot.board()));
    headers.set(BoardHttp.SOURCE_HEADER, source.header());
    headers.set(BoardHttp.ORIGIN_HEADER, snapshot.origin());
    headers.set(HttpHeaderNames.AGE, http.age(snapshot));
    if (!notModified) {
      headers.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
    }
    return response;
  }

  /** The problem document the main port renders for the same problem, from the same renderer. */
  private static FullHttpResponse problem(String path, Problem problem) {
    FullHttpResponse response =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(problem.type().status()),
            Unpooled.wrappedBuffer(ProblemRenderer.json(problem, path)));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, ProblemRenderer.MEDIA_TYPE);
    problem.headers().forEach((name, value) -> response.headers().set(name, value));
    return response;
  }

  private static void write(
      ChannelHandlerContext ctx, HttpRequest request, FullHttpResponse response) {
    if (response.status() != HttpResponseStatus.NOT_MODIFIED) {
      // RFC 9110: a 304 carries no Content-Length; a HEAD answer carries the GET's, no body.
      response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
    }
    if (request.method() == HttpMethod.HEAD) {
      response = response.replace(Unpooled.EMPTY_BUFFER);
    }
    HttpHeaders.setKeepAlive(response, HttpHeaders.isKeepAlive(request));
    if (HttpHeaders.isKeepAlive(request)) {
      ctx.writeAndFlush(response);
    } else {
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }

  /** Like Spring's binding of an optional Integer: absent or empty is null. */
  private static @Nullable Integer parameter(QueryStringDecoder uri, String name) {
    String value = parameterValue(uri, name);
    return value == null || value.isEmpty() ? null : Integer.valueOf(value.strip());
  }

  private static @Nullable String parameterValue(QueryStringDecoder uri, String name) {
    List<String> values = uri.parameters().get(name);
    return values == null || values.isEmpty() ? null : values.getFirst();
  }

  private static boolean isInteger(@Nullable String value) {
    if (value == null || value.isEmpty()) {
      return true;
    }
    try {
      Integer.parseInt(value.strip());
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
