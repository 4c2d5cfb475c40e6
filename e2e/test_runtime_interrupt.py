"""interrupt(): a runaway command stops, the instance stays usable, the file system survives.

Two runaways that a page can really start:
* a Python busy loop: `echo x | sed ':a;ba'` branches forever (sed gives up only after
  10 million steps, tens of seconds in WebAssembly);
* a JavaScript operation that never settles: the provider `slow` has `wait`, whose handler
  returns a promise that never resolves, so Python waits on the page forever.
The page is cross-origin isolated (COOP/COEP), so interrupt() first uses the shared
interrupt buffer (KeyboardInterrupt in Python) and the cancel flag; an instance created with
`sharedInterrupt: false` has neither, and its worker must be replaced.
"""
import pytest

BUSY_LOOP = "echo x | sed ':a;ba'"
INTERRUPTED = "[error] interrupted: the command was stopped before it finished\n\n[exit:130 | "
REPLACED = "[error] interrupted: the command did not stop, so its worker was replaced\n\n[exit:130 | "
SLOW = """[{namespace: "slow", summary: "Never answers", operations: [
    {name: "wait", summary: "Wait forever", kind: "read", handler: () => new Promise(() => {})}]}]"""
OPTIONS = f'{{storage: {{kind: "indexeddb", name: "e2e-interrupt"}}, providers: {SLOW}}}'
PLAIN_OPTIONS = f'{{storage: {{kind: "indexeddb", name: "plain"}}, providers: {SLOW}, interruptGraceMs: 1000}}'

# Start `line`, interrupt it after `delay` ms, return what interrupt() and the command said.
INTERRUPT_AFTER = """async ([name, line, delay]) => {
  const tool = window[name];
  const pending = tool.runDetailed(line);
  await new Promise((resolve) => setTimeout(resolve, delay));
  const {outcome} = await tool.interrupt();
  const result = await pending;
  return {outcome, exitCode: result.exitCode, text: result.presentation.text, stderr: result.stderr};
}"""


@pytest.fixture(scope="module")
def booted(onetool_page_factory, onetool_site_url, harness):
    page = onetool_page_factory(onetool_site_url)
    harness.open(page, onetool_site_url)
    harness.create(page, OPTIONS)
    yield page
    problems = page.watch.take()
    page.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def page(booted):
    yield booted
    booted.watch.assert_clean()


def run(page, line, name="tool"):
    return page.evaluate("([name, line]) => window[name].run(line)", [name, line])


def test_interrupt_with_nothing_running(page):
    assert page.evaluate("async () => tool.interrupt()") == {"outcome": "idle"}


def test_a_python_busy_loop_is_interrupted(page):
    run(page, "write /kept.txt before")
    result = page.evaluate(INTERRUPT_AFTER, ["tool", BUSY_LOOP, 700])
    assert result["outcome"] == "interrupted"
    assert result["exitCode"] == 130
    assert result["text"].startswith(INTERRUPTED)
    assert run(page, "cat /kept.txt && echo && echo still usable").startswith("before\nstill usable\n\n[exit:0 | ")
    assert page.evaluate("() => tool.info.restarts") == 0


def test_an_endless_shell_loop_is_interrupted(page):
    result = page.evaluate(INTERRUPT_AFTER, ["tool", "i=0; while true; do i=$((i + 1)); done", 700])
    assert (result["outcome"], result["exitCode"]) == ("interrupted", 130)
    assert result["text"].startswith(INTERRUPTED)
    assert run(page, "echo after").startswith("after\n\n[exit:0 | ")


def test_a_js_operation_that_never_answers_is_interrupted(page):
    result = page.evaluate(INTERRUPT_AFTER, ["tool", "slow wait", 300])
    assert (result["outcome"], result["exitCode"]) == ("interrupted", 130)
    assert result["text"].startswith(INTERRUPTED)
    assert run(page, "echo after").startswith("after\n\n[exit:0 | ")


def test_the_next_command_is_not_hit_by_a_late_interrupt(page):
    # interrupt() racing a command that is finishing: either result is fine, never a stray
    # KeyboardInterrupt in the event loop (a page error) or in the next command.
    for delay in (0, 0, 1, 2, 3, 5, 8):
        result = page.evaluate(INTERRUPT_AFTER, ["tool", "write /race.txt x && cat /race.txt", delay])
        assert result["exitCode"] in (0, 130), result
        assert run(page, "echo fine").startswith("fine\n\n[exit:0 | ")


def test_a_sleep_stops_at_the_cancel_flag(page):
    # A sleeping interpreter runs no bytecode, so no KeyboardInterrupt: the cancel flag, polled.
    result = page.evaluate(INTERRUPT_AFTER, ["tool", "sleep 30; echo after", 300])
    assert (result["outcome"], result["exitCode"]) == ("interrupted", 130)
    assert result["text"].startswith(INTERRUPTED)


def test_a_replaced_worker_starts_clean_although_the_interrupt_flags_are_raised(page):
    # interrupt() raises the shared flags, and replaces the worker when the command has not
    # stopped after the grace time: when the old worker never looked at them (Python stuck in
    # C code), they are still raised as the new one starts, and must not stop its start
    # (KeyboardInterrupt in its first import). Raised here by hand, then the pool replaces.
    result = page.evaluate("""async () => {
        const { raiseInterrupt } = await import("./js/interrupt.js");
        const hasty = window.hasty = await OneTool.createOneTool({storage: {kind: "memory"}, files: {"/seed.txt": "seeded"}});
        raiseInterrupt(hasty.pool.flags);
        await hasty.pool.replace(hasty);
        return {restarts: hasty.info.restarts, text: await hasty.run("cat /seed.txt && echo && seq 3 | wc -l")};
    }""")
    assert result["restarts"] == 1
    assert result["text"].startswith("seeded\n3\n\n[exit:0 | ")
    page.evaluate("async () => hasty.close()")


def test_without_shared_memory_the_worker_is_replaced_and_the_files_survive(page, harness):
    page.evaluate("""async () => {
        window.fallback = await OneTool.createOneTool({
            storage: {kind: "indexeddb", name: "e2e-interrupt"}, sharedInterrupt: false, interruptGraceMs: 1000});
    }""")
    assert page.evaluate("() => fallback.info.sharedInterrupt") is False
    run(page, "write /survivor.txt 'still here'", name="fallback")
    result = page.evaluate("""async () => {
        const pending = fallback.runDetailed("echo x | sed ':a;ba'");
        const queued = fallback.run("cat /survivor.txt");   // waits behind the runaway
        await new Promise((resolve) => setTimeout(resolve, 500));
        const {outcome} = await fallback.interrupt();
        const result = await pending;
        return {outcome, exitCode: result.exitCode, text: result.presentation.text,
                queued: await queued, restarts: fallback.info.restarts};
    }""")
    assert result["outcome"] == "restarted"
    assert result["exitCode"] == 130
    assert result["text"].startswith(REPLACED)
    assert result["queued"].startswith("still here\n\n[exit:0 | ")
    assert result["restarts"] == 1
    assert run(page, "echo alive && cat /survivor.txt", name="fallback").startswith("alive\nstill here\n\n[exit:0 | ")
    page.evaluate("async () => fallback.close()")


def test_from_a_plain_static_host_interrupt_replaces_the_worker(onetool_page_factory, onetool_plain_site_url, harness):
    page = onetool_page_factory(onetool_plain_site_url)
    try:
        harness.open(page, onetool_plain_site_url)
        info = harness.create(page, PLAIN_OPTIONS)
        assert (info["crossOriginIsolated"], info["sharedInterrupt"]) == (False, False)
        run(page, "write /plain.txt served-plainly")
        result = page.evaluate(INTERRUPT_AFTER, ["tool", BUSY_LOOP, 300])
        assert (result["outcome"], result["exitCode"]) == ("restarted", 130)
        assert run(page, "cat /plain.txt").startswith("served-plainly\n\n[exit:0 | ")
        result = page.evaluate(INTERRUPT_AFTER, ["tool", "slow wait", 300])  # no shared memory needed
        assert (result["outcome"], result["exitCode"]) == ("interrupted", 130)
        page.watch.assert_clean()
    finally:
        page.context.close()
