"""The pytest plugin's wiring, without a browser: it is registered through the wheel's entry
point, adds its options, and says what to do when there is no built site. The fixtures that
drive Chromium are tested in e2e/test_pytest_plugin.py."""
from __future__ import annotations

import pytest

from onetool_wasm.pytest_plugin.fixtures import options_source
from onetool_wasm.pytest_plugin.snapshot import store_module_url

pytest_plugins = ["pytester"]


def test_the_plugin_is_registered_by_the_entry_point(pytestconfig):
    plugin = pytestconfig.pluginmanager.get_plugin("onetool")
    assert plugin is not None and plugin.__name__ == "onetool_wasm.pytest_plugin.fixtures"


def test_a_missing_site_is_a_usage_error_that_says_what_to_do(pytester):
    pytester.makepyfile(test_page="def test_it(onetool_page):\n    pass\n")
    result = pytester.runpytest_inprocess("--onetool-site", "no-such-site")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*onetool: */no-such-site holds no onetool-manifest.json: build the site "
                                 "(`python build.py build`) or pass --onetool-site=<a built site folder>*"])


def test_the_site_option_comes_from_the_ini_file_too(pytester):
    pytester.makeini("[pytest]\nonetool_site = from-ini\n")
    pytester.makepyfile(test_dir="def test_it(onetool_site_dir):\n    pass\n")
    result = pytester.runpytest_inprocess()
    result.stdout.fnmatch_lines(["*/from-ini holds no onetool-manifest.json*"])


def test_options_are_json_or_javascript():
    assert options_source(None) == "{}"
    assert options_source({"storage": {"kind": "memory"}, "files": {"/a": "x\n"}}) == \
        '{"storage": {"kind": "memory"}, "files": {"/a": "x\\n"}}'
    assert options_source("{confirm: () => 'approved'}") == "{confirm: () => 'approved'}"


def test_the_snapshot_store_sits_beside_the_api_module():
    assert store_module_url("http://h:1/", "js/onetool.js") == "http://h:1/js/snapshot-store.js"
    assert store_module_url("http://h:1/rt/", "onetool.js") == "http://h:1/rt/snapshot-store.js"
