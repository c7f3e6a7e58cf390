"""A data file outside the package folders that kept code names (``Path(__file__).parents[2] / "config" /
"plugins.txt"``, a section of its own in ``setup.cfg``): the modules it names stay, as a package's own data
files' do. Before, only files inside a package folder were read: the plugin (imported otherwise only by code no root
reaches, so not loose) left the fork with exit 0 and its import raised ModuleNotFoundError (session 41, both
`[symbols]` modes; a ``.env`` file, session 45)."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

READERS = {
    "config_folder": ("import importlib\nfrom pathlib import Path\n\n\ndef main():\n"
                      "    cfg = Path(__file__).resolve().parents[1] / 'config' / 'plugins.txt'\n"
                      "    return [importlib.import_module(n).run() for n in cfg.read_text().split()]\n",
                      "config/plugins.txt", "pkg.plugins.alpha\n"),
    "setup_cfg": ("import configparser\nimport importlib\nfrom pathlib import Path\n\n\ndef main():\n"
                  "    cp = configparser.ConfigParser()\n"
                  "    cp.read(Path(__file__).resolve().parents[1] / 'setup.cfg')\n"
                  "    return [importlib.import_module(cp['pkg']['backend']).run()]\n",
                  "setup.cfg", "[pkg]\nbackend = pkg.plugins.alpha\n"),
    # session 45: a dot file, named by its suffix alone (it was no data name: the plugin left the fork)
    "dot_env": ("import importlib\nfrom pathlib import Path\n\n\ndef main():\n"
                "    env = dict(l.split('=', 1) for l in (Path(__file__).parents[1] / '.env').read_text().split())\n"
                "    return [importlib.import_module(env['BACKEND']).run()]\n",
                ".env", "BACKEND=pkg.plugins.alpha\n"),
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_data_file_kept_code_names_keeps_what_it_names(tmp_path, reader, mode):
    app, path, text = READERS[reader]
    files = {"pkg/__init__.py": "", "pkg/app.py": app, "pkg/plugins/__init__.py": "",
             "pkg/plugins/alpha.py": "def run():\n    return 'alpha'\n",
             "pkg/legacy.py": "import pkg.plugins.alpha\nALL = True\n", path: text,
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "['alpha']", done.stderr[-2000:]
    assert not (fork / "pkg/legacy.py").exists()
