package io.hotrank.console;

/** The console's paths that more than one class names. */
final class ConsolePaths {

  /** The root; every console path is under it. */
  static final String ROOT = "/console";

  /** The sign-in page, the one page open without a session. */
  static final String SIGN_IN = ROOT + "/sign-in";

  /** The vendored script and the style sheet, open without a session. */
  static final String ASSETS = ROOT + "/assets/**";

  private ConsolePaths() {}
}
