package io.hotrank.console;

import io.hotrank.problem.HotrankException;
import io.hotrank.task.TaskAdmin;
import io.hotrank.task.Tasks;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;

/**
 * The tasks: every task with its state and last run, a task's run history, and pause, resume and
 * trigger through {@link TaskAdmin}, as the admin API does, so each action is audited with the
 * operator as actor. A refused action answers the tasks page again with the problem's status and
 * {@code detail}.
 */
@Controller
class TaskPages {

  private static final Logger log = LoggerFactory.getLogger(TaskPages.class);
  private static final int RUNS_SHOWN = 50;

  private final Tasks tasks;
  private final TaskAdmin admin;

  TaskPages(Tasks tasks, TaskAdmin admin) {
    this.tasks = tasks;
    this.admin = admin;
  }

  @GetMapping(ConsolePaths.ROOT + "/tasks")
  String list(Model model) {
    model.addAttribute("tasks", tasks.all());
    return "console/tasks";
  }

  @GetMapping(ConsolePaths.ROOT + "/tasks/{name}")
  String task(@PathVariable String name, Model model) {
    model.addAttribute("name", name);
    model.addAttribute("runs", tasks.runs(name, RUNS_SHOWN));
    model.addAttribute("history", tasks.history());
    return "console/task";
  }

  @PostMapping(ConsolePaths.ROOT + "/tasks/{name}/{action:pause|resume|trigger}")
  String act(
      @PathVariable String name,
      @PathVariable String action,
      Operator operator,
      HttpServletResponse response,
      Model model) {
    try {
      ConsoleForbiddenException.require(operator, Role.OPERATOR);
      switch (action) {
        case "pause" -> admin.pause(name, operator.name(), null);
        case "resume" -> admin.resume(name, operator.name(), null);
        default -> admin.trigger(name, operator.name(), null);
      }
      log.info("Console: operator '{}' asked task '{}' to {}", operator.name(), name, action);
    } catch (HotrankException e) {
      response.setStatus(e.type().status());
      model.addAttribute("problem", e.problem());
      return list(model);
    }
    return "redirect:" + ConsolePaths.ROOT + "/tasks";
  }
}
