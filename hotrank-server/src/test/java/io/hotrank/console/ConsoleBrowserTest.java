package io.hotrank.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.board.BoardControls;
import io.hotrank.web.Operators;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The console in a real browser: Debian's headless {@code chromium} driven by {@code chromedriver}
 * through Selenium. One browser for the class, 1280x800 (one screenshot at a phone's 390x844);
 * every wait is a bounded {@link WebDriverWait} on a condition. Screenshots go to {@code
 * target/console-screenshots/}. Skips itself where chromium or chromedriver is missing, unless
 * {@code HOTRANK_TEST_BROWSER=required} (CI), where that fails the test.
 */
@Tag("browser")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest extends ConsoleTestSupport {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path SCREENSHOTS = Path.of("target/console-screenshots");
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Autowired Operators operators;
  @Autowired ObjectProvider<BoardControls> controls;

  private ChromeDriver browser;
  private WebDriverWait wait;

  @BeforeAll
  void startBrowser() throws IOException {
    boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!installed && "required".equals(System.getenv("HOTRANK_TEST_BROWSER"))) {
      throw new IllegalStateException(
          "HOTRANK_TEST_BROWSER=required but " + CHROMIUM + " or " + CHROMEDRIVER + " is missing");
    }
    Assumptions.assumeTrue(installed, "chromium and chromedriver are not installed");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox", // CI runs as root, where chromium's sandbox cannot start
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,800");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
            .usingAnyFreePort()
            .build();
    browser = new ChromeDriver(service, options);
    browser.manage().window().setSize(new Dimension(1280, 800));
    wait = new WebDriverWait(browser, WAIT);
    Files.createDirectories(SCREENSHOTS);
  }

  @AfterAll
  void stopBrowser() {
    if (browser != null) {
      browser.quit();
    }
  }

  @Test
  @Order(1)
  void aWrongToken_isRefusedOnThePage_andSetsNoCookie() {
    browser.get(base() + "/console/sign-in");
    signInWith("wrong-token");
    WebElement error =
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-error")));
    assertThat(error.getText()).contains("not an operator's token");
    assertThat(browser.manage().getCookieNamed(ConsoleSessions.COOKIE)).isNull();
    screenshot("01-sign-in-refused");
  }

  @Test
  @Order(2)
  void anAdmin_pinsAnItem_andSeesItAtItsRank_inThePage_theApi_andTheAudit() {
    for (long id = 1; id <= 6; id++) {
      createItem("news", id, "Story " + id, 1, NOW.minusSeconds(600 * id));
    }
    http.admin("/api/v1/admin/boards/news-decay/recompute");

    browser.get(base() + "/console/sign-in");
    signInWith(ADMIN_TOKEN);
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("boards")));
    assertThat(browser.findElement(By.id("operator")).getText()).isEqualTo("admin");
    screenshot("02-boards");

    browser.findElement(By.linkText("news-decay")).click();
    wait.until(rowOf(6, 6));
    screenshot("03-board");
    browser.manage().window().setSize(new Dimension(390, 844));
    wait.until(rowOf(6, 6));
    assertFitsAPhone();
    screenshot("04-board-phone");
    browser.manage().window().setSize(new Dimension(1280, 800));

    assertThat(controls.getIfAvailable()).as("the board controls' service").isNotNull();
    // The item at the bottom of the board: its row's link fills the control form.
    browser.findElement(By.cssSelector("#items tr[data-item='6'] a.act")).click();
    WebElement item =
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("control-item")));
    assertThat(item.getDomProperty("value")).isEqualTo("6");
    String reason = "editor's pick " + UUID.randomUUID();
    new Select(browser.findElement(By.id("control-action"))).selectByValue("pin");
    browser.findElement(By.id("control-position")).sendKeys("1");
    browser.findElement(By.id("control-reason")).sendKeys(reason);
    browser.findElement(By.id("control-apply")).click();

    wait.until(rowOf(6, 1));
    assertThat(browser.findElement(By.cssSelector("#items tr[data-item='6'] .badge")).getText())
        .isEqualTo("pin");
    assertThat(browser.findElement(By.cssSelector("#controls tr[data-item='6']")).getText())
        .contains(reason);
    screenshot("05-pinned");

    JsonNode first = http.get("/api/v1/boards/news-decay").json().get("items").get(0);
    assertThat(first.get("itemId").asLong()).isEqualTo(6);
    assertThat(first.get("rank").asInt()).isEqualTo(1);

    browser.findElement(By.linkText("Audit")).click();
    WebElement target =
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("audit-target")));
    target.sendKeys("board:news-decay/6");
    browser.findElement(By.id("audit-filter")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#audit tbody"), reason));
    WebElement entry = browser.findElement(By.cssSelector("#audit tbody tr"));
    assertThat(entry.findElement(By.className("actor")).getText()).isEqualTo("admin");
    assertThat(entry.findElement(By.className("reason")).getText()).isEqualTo(reason);
    screenshot("06-audit");
  }

  @Test
  @Order(3)
  void aViewer_findsNoAction() {
    assertThat(operators.authenticate(VIEWER_TOKEN)).as("the viewer's key").isPresent();
    createItem("news", 1L, "Story 1", 1, NOW.minusSeconds(600));
    http.admin("/api/v1/admin/boards/news-decay/recompute");
    browser.manage().deleteAllCookies();
    browser.get(base() + "/console/sign-in");
    signInWith(VIEWER_TOKEN);
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("boards")));
    assertThat(browser.findElement(By.id("role")).getText()).isEqualTo("viewer");
    for (String page : List.of("/console/boards/news-decay", "/console/tasks")) {
      browser.get(base() + page);
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.tagName("main")));
      List<String> buttons =
          browser.findElements(By.cssSelector("main button, main a.act")).stream()
              .map(WebElement::getText)
              .toList();
      assertThat(buttons).as(page).isEmpty();
    }
    screenshot("07-viewer-board");
  }

  @Test
  @Order(4)
  void anOperator_flagsAnActor_onThePhone_andFindsItAmongTheFlagged() {
    long userId = 700_000_000L + System.nanoTime() % 100_000_000L;
    String reason = "like ring " + UUID.randomUUID().toString().substring(0, 8);
    browser.manage().deleteAllCookies();
    browser.get(base() + "/console/sign-in");
    signInWith(ADMIN_TOKEN);
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("boards")));
    browser.manage().window().setSize(new Dimension(390, 844));
    try {
      browser.findElement(By.linkText("Actors")).click();
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("actor-user-id")))
          .sendKeys(Long.toString(userId));
      browser.findElement(By.id("actor-find")).click();
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("actor-unknown")));
      browser.findElement(By.id("flag-reason")).sendKeys(reason);
      browser.findElement(By.id("flag-apply")).click();

      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("actor-flag"), reason));
      assertThat(browser.findElement(By.id("actor-flag")).getText()).contains("by admin");
      assertThat(browser.findElements(By.id("unflag-form"))).hasSize(1);
      assertThat(
              browser
                  .findElement(By.cssSelector("#flagged tr[data-user='" + userId + "']"))
                  .getText())
          .contains(reason);
      assertFitsAPhone();
      screenshot("08-actor-flagged-phone");
      assertThat(http.get("/api/v1/actors/" + userId).json().get("flag").get("reason").asString())
          .isEqualTo(reason);
    } finally {
      browser.manage().window().setSize(new Dimension(1280, 800));
    }
  }

  @Test
  @Order(5)
  void anOperator_approvesAHeldItem_onThePhone_andTheBoardAndTheQueueFollow() {
    jdbc.update("DELETE FROM hr_review_decision");
    jdbc.update("DELETE FROM hr_review_queue");
    createItem("rvw", 1L, "Held story", 71, NOW.minusSeconds(60));
    createItem("rvw", 2L, "Another held story", 72, NOW.minusSeconds(60));
    postEvents(
        "{\"biz\":\"rvw\",\"itemId\":1,\"type\":\"like\"}",
        "{\"biz\":\"rvw\",\"itemId\":1,\"type\":\"like\"}",
        "{\"biz\":\"rvw\",\"itemId\":2,\"type\":\"like\"}");
    http.admin("/api/v1/admin/boards/review-required/recompute");
    assertThat(http.get("/api/v1/boards/review-required").json().get("items")).isEmpty();

    browser.manage().deleteAllCookies();
    browser.get(base() + "/console/sign-in");
    signInWith(ADMIN_TOKEN);
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("boards")));
    assertThat(browser.findElement(By.id("review-count")).getText()).isEqualTo("2");
    browser.manage().window().setSize(new Dimension(390, 844));
    try {
      browser.findElement(By.partialLinkText("Review")).click();
      WebElement card =
          wait.until(
              ExpectedConditions.visibilityOfElementLocated(
                  By.cssSelector("#review-queue article[data-item='1']")));
      assertThat(card.findElement(By.className("would-rank")).getText()).isEqualTo("1");
      assertThat(card.findElement(By.className("points")).getText()).contains("2.0 / 2.0");
      assertFitsAPhone();
      screenshot("09-review-phone");
      card.findElement(By.name("reason")).sendKeys("read it");
      card.findElement(By.className("approve")).click();

      wait.until(
          ExpectedConditions.numberOfElementsToBe(
              By.cssSelector("#review-queue article[data-item='1']"), 0));
      assertThat(browser.findElement(By.id("review-count")).getText()).isEqualTo("1");
      assertThat(
              http.get("/api/v1/boards/review-required")
                  .json()
                  .get("items")
                  .get(0)
                  .get("itemId")
                  .asLong())
          .isEqualTo(1);
      // Every item of the other author, from its card.
      browser
          .findElement(By.cssSelector("#review-queue article[data-item='2'] .approve-author"))
          .click();
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("review-empty")));
      assertThat(browser.findElements(By.id("review-count"))).isEmpty();
      assertThat(http.get("/api/v1/boards/review-required").json().get("items")).hasSize(2);
    } finally {
      browser.manage().window().setSize(new Dimension(1280, 800));
    }
  }

  /** The page, at a phone's 390 px, scrolls sideways nowhere but inside its tables. */
  private void assertFitsAPhone() {
    org.openqa.selenium.JavascriptExecutor js = (org.openqa.selenium.JavascriptExecutor) browser;
    Number width = (Number) js.executeScript("return document.documentElement.scrollWidth");
    Object wide = // for the failure's message: what sticks out
        js.executeScript(
            "return Array.from(document.querySelectorAll('main *')).filter(e =>"
                + " e.getBoundingClientRect().right > 390).map(e => e.tagName + '#' + e.id)"
                + ".join(' ')");
    assertThat(width.intValue())
        .as("no sideways scrolling at 390 px; beyond it: %s", wide)
        .isLessThanOrEqualTo(390);
  }

  private void signInWith(String token) {
    WebElement field = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
    field.sendKeys(token);
    browser.findElement(By.id("sign-in")).click();
  }

  /** The live table shows {@code item} at {@code rank} (the fragment is polled every second). */
  private static org.openqa.selenium.support.ui.ExpectedCondition<Boolean> rowOf(
      long item, int rank) {
    return (WebDriver driver) ->
        !driver
            .findElements(
                By.cssSelector("#items tr[data-item='" + item + "'][data-rank='" + rank + "']"))
            .isEmpty();
  }

  private void screenshot(String name) {
    Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
    try {
      Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
