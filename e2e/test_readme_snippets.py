"""The README's browser examples run as written (the Python and shell ones run in
tests/test_docs_examples.py): the JS API block in the test harness page, the embedding block
as a page of its own beside the built site, the Playwright block against the served site."""
import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
FOOTER = re.compile(r"\n\n\[exit:(\d+) \| [0-9.]+m?s\]$")


def block_after(marker: str, language: str) -> str:
    """The first ```language block after `marker` in the README."""
    start = README.index(marker)
    opening = README.index(f"```{language}\n", start) + len(f"```{language}\n")
    return README[opening:README.index("```", opening)]


def test_the_javascript_api_example_runs_as_written(onetool_page_factory, onetool_site_url, harness):
    code = block_after("The JavaScript API is", "js")
    assert code.startswith('import { createOneTool } from "./js/onetool.js";\n')
    body = code.replace('import { createOneTool } from "./js/onetool.js";\n', "const { createOneTool } = OneTool;\n")
    # Each statement of the example becomes a value the test can read.
    body = body.replace('await tool.run("petstore listPets | json get [0].name");',
                        'const named = await tool.run("petstore listPets | json get [0].name");')
    body = body.replace('await tool.toolDefinition("anthropic");',
                        'const definition = await tool.toolDefinition("anthropic");')
    page = onetool_page_factory(onetool_site_url)
    harness.open(page, onetool_site_url)
    result = page.evaluate(f"""async () => {{
        {body}
        return {{named, exit: execution.exitCode, out: new TextDecoder().decode(execution.stdout),
                 definition: definition.name}};
    }}""")
    assert FOOTER.sub("", result["named"]) == "Rex"
    assert (result["exit"], result["out"], result["definition"]) == (0, "1\n", "run")
    assert not page.watch.take()
    page.context.close()


def test_the_embedding_example_runs_from_a_folder_of_the_site(onetool_page_factory, onetool_site_url):
    html = block_after("Then, from any page of your site", "html")
    # The README's page sits beside the `onetool/` folder; here the built site is that folder.
    page = onetool_page_factory(onetool_site_url)
    page.goto(onetool_site_url + "test-harness.html")  # a page of the site's origin, then the README's content
    with page.expect_console_message(lambda message: message.type == "log" and "[exit:" in message.text,
                                     timeout=180_000) as printed:
        page.set_content("<!doctype html><html><body>" + html.replace("./onetool/", onetool_site_url) + "</body></html>")
    assert FOOTER.sub("", printed.value.text) == "6"
    assert page.locator("onetool-sandbox").count() == 1
    assert not page.watch.take()
    page.context.close()


def test_the_playwright_example_runs_as_written(onetool_new_page, onetool_site_url):
    code = block_after("For Playwright users", "python")
    assert code.startswith('site = "http://127.0.0.1:8000/"')
    page = onetool_new_page()
    page.set_default_timeout(180_000)
    # The README's address is where `python build.py serve` listens; here the suite's server.
    exec(compile(code.replace('"http://127.0.0.1:8000/"', repr(onetool_site_url)), "README.md", "exec"),
         {"page": page})
