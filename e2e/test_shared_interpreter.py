"""Several sandboxes on one page share one worker and one Pyodide (web/js/shared-worker-pool.js).

One page (test-harness.html) gets three <onetool-sandbox> elements in view and one far below
the fold, plus shared createOneTool instances; each keeps its own files, consent and state,
commands take turns, interrupting one stops only its own command, and a replaced worker
brings every sibling back from its own storage.
"""
import pytest

BUSY_LOOP = "echo x | sed ':a;ba'"
INTERRUPTED = "[error] interrupted: the command was stopped before it finished\n\n[exit:130 | "
REPLACED = "[error] interrupted: the command did not stop, so its worker was replaced\n\n[exit:130 | "

# Three sandboxes at the top, then a spacer and one far below the fold.
PAGE_SETUP = """async () => {
  await import("./js/sandbox-element.js");
  window.pool = await import("./js/shared-worker-pool.js");
  for (const i of [0, 1, 2]) {
    const box = document.createElement("onetool-sandbox");
    box.id = `box-${i}`;
    box.setAttribute("label", `box ${i}`);
    box.setAttribute("files", JSON.stringify({[`/seed-${i}.txt`]: `seed ${i}\\n`}));
    document.body.append(box);
  }
  const spacer = document.createElement("div");
  spacer.style.height = "6000px";
  const below = document.createElement("onetool-sandbox");
  below.id = "below";
  below.setAttribute("files", JSON.stringify({"/below.txt": "far down\\n"}));
  below.setAttribute("autorun", "cat /below.txt");
  document.body.append(spacer, below);
  await Promise.all([0, 1, 2].map((i) => document.getElementById(`box-${i}`).ready));
}"""
CONSENT_TOOLS = """async () => {
  window.asked = [];
  const options = (policy, confirm) => ({shared: true, storage: {kind: "memory"},
                                         files: {"/doomed.txt": "x"}, policy, confirm});
  window.strict = await OneTool.createOneTool(options({confirm: ["fs:rm"]},
      (request) => { asked.push(request.ref); return "declined"; }));
  window.lenient = await OneTool.createOneTool(options(null, undefined));
}"""
# Start `line` in window[name], interrupt it after `delay` ms; what interrupt() and the command said.
INTERRUPT_AFTER = """async ([name, line, delay]) => {
  const tool = window[name];
  const pending = tool.runDetailed(line);
  await new Promise((resolve) => setTimeout(resolve, delay));
  const {outcome} = await tool.interrupt();
  const result = await pending;
  return {outcome, exitCode: result.exitCode, text: result.presentation.text};
}"""


@pytest.fixture(scope="module")
def shared_page(onetool_page_factory, onetool_site_url, harness):
    page = onetool_page_factory(onetool_site_url)
    page.set_viewport_size({"width": 1000, "height": 800})
    harness.open(page, onetool_site_url)
    page.evaluate(PAGE_SETUP)
    yield page
    problems = page.watch.take()
    page.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def page(shared_page):
    yield shared_page
    shared_page.watch.assert_clean()


def box_run(page, box, line):
    return page.evaluate("([box, line]) => document.getElementById(box).tool.run(line)", [box, line])


def tool_run(page, name, line):
    return page.evaluate("([name, line]) => window[name].run(line)", [name, line])


def counts(page):
    return page.evaluate("() => pool.workerCounts()")


def test_sandboxes_in_view_share_one_worker(page):
    assert page.evaluate("[0, 1, 2].map((i) => document.getElementById(`box-${i}`).hasAttribute('ready'))") == [
        True, True, True]
    assert counts(page) == {"started": 1, "alive": 1, "sharedPools": 1, "sharedMembers": 3}
    assert len(page.workers) == 1
    # Three instances, three sessions: each sees only its own seed file.
    for i in range(3):
        assert box_run(page, f"box-{i}", "ls /").startswith(f"seed-{i}.txt\n\n[exit:0 | ")


def test_files_written_in_one_sandbox_are_not_in_another(page):
    assert box_run(page, "box-0", "write /mine.txt hello").startswith("wrote 5B to /mine.txt\n\n[exit:0 | ")
    assert box_run(page, "box-0", "cat /mine.txt").startswith("hello\n\n[exit:0 | ")
    assert box_run(page, "box-1", "cat /mine.txt").startswith("[error] cat: /mine.txt: No such file or directory")
    assert box_run(page, "box-1", "ls /").startswith("seed-1.txt\n\n[exit:0 | ")
    # Shell state is per instance too: a terminal's history and a session's cwd.
    page.evaluate("() => document.getElementById('box-2').run('echo typed-in-2')")
    assert page.evaluate("() => document.getElementById('box-2').shadowRoot.querySelectorAll('.out').length") == 1
    assert page.evaluate("() => document.getElementById('box-1').shadowRoot.querySelectorAll('.out').length") == 0


def test_a_sandbox_below_the_fold_boots_only_when_scrolled_into_view(page):
    below = "document.getElementById('below')"
    assert page.evaluate(f"[{below}.hasAttribute('started'), {below}.hasAttribute('ready'), {below}.tool]") == [
        False, False, None]
    assert page.evaluate(f"{below}.shadowRoot.querySelector('.status').textContent") == "starts when shown"
    page.wait_for_timeout(500)  # nothing boots it by itself
    assert page.evaluate(f"{below}.hasAttribute('started')") is False
    page.evaluate(f"{below}.scrollIntoView()")
    page.wait_for_function(f"{below}.hasAttribute('ready')", timeout=60_000)
    # It joined the page's worker, and its autorun ran once it was shown.
    assert counts(page) == {"started": 1, "alive": 1, "sharedPools": 1, "sharedMembers": 4}
    page.wait_for_function(f"{below}.shadowRoot.querySelectorAll('.out').length === 1", timeout=60_000)
    assert page.evaluate(f"{below}.shadowRoot.querySelector('.out').textContent").startswith(
        "far down\n\n[exit:0 | ")
    page.evaluate("window.scrollTo(0, 0)")


def test_shared_tools_keep_their_own_consent(page):
    page.evaluate(CONSENT_TOOLS)
    assert counts(page) == {"started": 1, "alive": 1, "sharedPools": 1, "sharedMembers": 6}
    assert page.evaluate("[strict.info.shared, lenient.info.shared]") == [True, True]
    assert tool_run(page, "strict", "rm /doomed.txt").startswith(
        "[error] rm: fs:rm was declined by the user; nothing was run\n\n[exit:1 | ")
    assert tool_run(page, "lenient", "rm /doomed.txt && echo gone").startswith("gone\n\n[exit:0 | ")
    assert page.evaluate("asked") == ["fs:rm"]
    assert tool_run(page, "strict", "cat /doomed.txt").startswith("x\n\n[exit:0 | ")


def test_interrupting_one_instance_stops_only_its_own_command(page):
    # strict's runaway is stopped by the shared-memory interrupt; lenient's command, queued
    # behind it, runs afterwards, and lenient's interrupt() with nothing of its own is idle.
    result = page.evaluate("""async () => {
      const runaway = strict.runDetailed("echo x | sed ':a;ba'");
      const queued = lenient.run("write /after.txt queued && cat /after.txt");
      await new Promise((resolve) => setTimeout(resolve, 700));
      const idle = await box1().tool.interrupt();
      const {outcome} = await strict.interrupt();
      const result = await runaway;
      return {idle: idle.outcome, outcome, text: result.presentation.text, queued: await queued};
      function box1() { return document.getElementById("box-1"); }
    }""")
    assert (result["idle"], result["outcome"]) == ("idle", "interrupted")
    assert result["text"].startswith(INTERRUPTED)
    assert result["queued"].startswith("wrote 6B to /after.txt\nqueued\n\n[exit:0 | ")
    # A command still waiting its turn is dropped by its own interrupt(); the running one goes on.
    result = page.evaluate("""async () => {
      const running = strict.run("sleep 1 && echo slept");
      const waiting = lenient.run("echo never");
      await new Promise((resolve) => setTimeout(resolve, 100));
      const {outcome} = await lenient.interrupt();
      return {outcome, waiting: await waiting, running: await running};
    }""")
    assert result["outcome"] == "interrupted"
    assert result["waiting"].startswith(INTERRUPTED)
    assert result["running"].startswith("slept\n\n[exit:0 | ")
    assert box_run(page, "box-0", "cat /mine.txt").startswith("hello\n\n[exit:0 | ")
    assert page.evaluate("[strict.info.restarts, lenient.info.restarts]") == [0, 0]
    assert counts(page)["started"] == 1


def test_a_replaced_worker_restarts_every_sibling_from_its_storage(page, fresh_db_name):
    db = fresh_db_name()
    page.evaluate("""async (db) => {
      window.restartEvents = [];
      window.kept = await OneTool.createOneTool({shared: true, storage: {kind: "indexeddb", name: db}});
      // No shared-memory interrupt for this one: its runaway can only end with a new worker.
      window.stuck = await OneTool.createOneTool({shared: true, storage: {kind: "memory"},
                                                   sharedInterrupt: false, interruptGraceMs: 1000});
      kept.addEventListener("restarted", (event) => restartEvents.push(["kept", event.detail]));
      document.getElementById("box-0").addEventListener("onetool-restarted",
          (event) => restartEvents.push(["box-0", event.detail]));
    }""", db)
    assert tool_run(page, "kept", "write /durable.txt on-disk").startswith("wrote 7B to /durable.txt\n\n[exit:0 | ")
    workers_before = counts(page)
    result = page.evaluate(INTERRUPT_AFTER, ["stuck", BUSY_LOOP, 300])
    assert (result["outcome"], result["exitCode"]) == ("restarted", 130)
    assert result["text"].startswith(REPLACED)
    assert counts(page) == {**workers_before, "started": workers_before["started"] + 1}
    for _ in range(50):  # the old worker's end reaches Playwright a little later
        if len(page.workers) == 1:
            break
        page.wait_for_timeout(100)
    assert len(page.workers) == 1
    # The IndexedDB sibling kept its files; the memory sandbox is back to its seed files.
    assert tool_run(page, "kept", "cat /durable.txt").startswith("on-disk\n\n[exit:0 | ")
    assert box_run(page, "box-0", "ls /").startswith("seed-0.txt\n\n[exit:0 | ")
    events = page.evaluate("restartEvents")
    assert sorted(events, key=lambda event: event[0]) == [
        ["box-0", {"storage": {"kind": "memory"}, "lostState": True, "interruptedBy": "sibling", "error": None}],
        ["kept", {"storage": {"kind": "indexeddb", "name": db}, "lostState": False,
                  "interruptedBy": "sibling", "error": None}],
    ]
    assert page.evaluate("[kept.info.restarts, stuck.info.restarts]") == [1, 1]
    note = page.evaluate("document.getElementById('box-0').shadowRoot.querySelector('.note').textContent")
    assert note == ("the runtime was restarted (another sandbox's command did not stop): "
                    "the files are back to their starting state")
    assert tool_run(page, "stuck", "echo alive").startswith("alive\n\n[exit:0 | ")
