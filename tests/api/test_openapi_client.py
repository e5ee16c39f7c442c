"""``/openapi.json`` as client generators take it: openapi-python-client generates a
client from the live document with no error and no warning, and the rules objects are
closed (``additionalProperties: false``) exactly as the package refuses unknown keys."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from capsa_fast import banting, susun
from flask.testing import FlaskClient


def _document(api_client: FlaskClient) -> dict[str, Any]:
    response = api_client.get("/openapi.json")
    assert response.status_code == 200
    document = response.get_json()
    assert isinstance(document, dict)
    return document


def test_openapi_python_client_generates_a_client_without_warnings(
    api_client: FlaskClient, tmp_path: Path
) -> None:
    document = tmp_path / "openapi.json"
    document.write_text(json.dumps(_document(api_client)), encoding="utf-8")
    # No post hooks: the generator formats with ruff by default, which is a separate tool.
    config = tmp_path / "config.yaml"
    config.write_text("post_hooks: []\n", encoding="utf-8")
    out = tmp_path / "client"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(document),
            "--config",
            str(config),
            "--output-path",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert output.strip() == f"Generating {out}", output
    models = out / "capsa_fast_api_client" / "models"
    for name in ("banting_rules.py", "banting_settings.py", "game_rules.py", "susun_rules.py"):
        assert (models / name).is_file(), name


# Keys the package reads besides "preset" and the settings of its presets.
ALIASES = {
    "BantingRules": (banting.Rules, {"straight_order": "two-high"}),
    "SusunRules": (susun.Rules, {"super_min_players": 2}),
}


@pytest.mark.parametrize("name", sorted(ALIASES))
def test_rules_objects_are_closed_as_the_package_refuses_unknown_keys(
    api_client: FlaskClient, name: str
) -> None:
    schema = _document(api_client)["components"]["schemas"][name]
    rules_class, aliases = ALIASES[name]
    assert schema["additionalProperties"] is False
    presets = schema["properties"]["preset"]["enum"]
    settings = {key for preset in presets for key in rules_class.preset(preset).to_dict()}
    settings -= {"preset", "straight_order"}  # what to_dict reports besides the settings
    assert set(schema["properties"]) == {"preset"} | settings | set(aliases)
    # Every documented key is read; a key the document does not name is refused.
    rules_class.from_dict(aliases)
    with pytest.raises(ValueError, match="unknown setting 'colour'"):
        rules_class.from_dict({"colour": "red"})
