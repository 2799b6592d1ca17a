"""The service's signing keys: made once, kept private, rotated without breaking what they signed."""
from __future__ import annotations

import json
import re
import stat
import subprocess
import sys

from service.signing import (
    ACTIVE_FILE,
    KEYS_FOLDER,
    keyring_from_environment,
    load_keyring,
    rotate,
    signed_head,
    verify_signature,
)
from tests.api.conftest import FAST, Api, serve
from tests.workers.records import play, record
from workers.exports import export_game, game_folder
from workers.keyfile import trusted_keys

HEAD = signed_head("g1", 9, "ab" * 32, "cd" * 32)
MAKE_KEY = "import sys; from pathlib import Path; from service.signing import load_keyring; " \
           "print(load_keyring(Path(sys.argv[1])).active.key_id)"


def test_two_processes_starting_at_once_make_one_private_key(tmp_path):
    starting = [subprocess.Popen([sys.executable, "-c", MAKE_KEY, str(tmp_path)], stdout=subprocess.PIPE, text=True)
                for _ in range(4)]
    key_ids = {process.communicate(timeout=60)[0].strip() for process in starting}
    assert len(key_ids) == 1 and all(process.returncode == 0 for process in starting)
    folder = tmp_path / KEYS_FOLDER
    assert [path.name for path in folder.iterdir()] == [ACTIVE_FILE]
    assert stat.S_IMODE((folder / ACTIVE_FILE).stat().st_mode) == 0o600


def test_a_retired_key_stays_listed_and_what_it_signed_still_verifies(tmp_path):
    before = load_keyring(tmp_path)
    signature = before.sign(HEAD)
    assert rotate(tmp_path) == before.active.key_id
    after = load_keyring(tmp_path)
    assert after.active.key_id != before.active.key_id
    listed = {key["key_id"]: key for key in after.listing()}
    assert listed[before.active.key_id]["status"] == "retired" and listed[after.active.key_id]["status"] == "active"
    keys_file = tmp_path / "keys.json"
    keys_file.write_text(json.dumps({"keys": after.listing()}))
    trusted = {key_id: key.key for key_id, key in trusted_keys(str(keys_file)).items()}
    assert verify_signature(HEAD, signature, trusted) is None
    assert verify_signature({**HEAD, "version": 10}, signature, trusted) is not None


def test_a_configured_key_file_signs_and_a_pem_public_key_verifies(tmp_path):
    load_keyring(tmp_path / "made")
    configured = load_keyring(tmp_path / "elsewhere", tmp_path / "made" / KEYS_FOLDER / ACTIVE_FILE)
    assert not (tmp_path / "elsewhere" / KEYS_FOLDER / ACTIVE_FILE).exists()
    trusted = {key_id: key.key for key_id, key in
               trusted_keys(str(tmp_path / "made" / KEYS_FOLDER / ACTIVE_FILE)).items()}
    assert verify_signature(HEAD, configured.sign(HEAD), trusted) is None


def test_every_integrity_answer_is_signed_by_a_key_the_service_lists(redis_server, redis_client, data_dir):
    for base in serve({"REDIS_URL": redis_server.url, **FAST}):
        api = Api(base)
        created = api.create()
        answer = api.get(f"/games/{created['game_id']}/integrity").json()
        listed = api.get("/keys").json()
    assert answer["ok"] and answer["signature"]["algorithm"] == "ed25519"
    assert (data_dir / KEYS_FOLDER / ACTIVE_FILE).is_file()
    keys_file = data_dir / "keys.json"
    keys_file.write_text(json.dumps(listed))
    trusted = {key_id: key.key for key_id, key in trusted_keys(str(keys_file)).items()}
    head = signed_head(answer["game_id"], answer["version"], answer["head_hash"], answer["seed_commitment"])
    assert answer["seed_commitment"] is not None
    assert verify_signature(head, answer["signature"], trusted) is None
    assert verify_signature({**head, "head_hash": "0" * 64}, answer["signature"], trusted) is not None


def test_the_replay_page_carries_the_signed_head(store, redis_client, export_dir):
    record(store, "g1", play(choice=2))
    saved = export_game(store, redis_client, "g1", "html", store.version("g1"), None, export_dir)
    page = (game_folder(export_dir, "g1") / saved["file"]).read_text()
    signed = json.loads(re.search(r'<script type="application/json" id="signed-head">(.*?)</script>', page).group(1))
    keyring = keyring_from_environment()
    assert signed["signed_head"]["head_hash"] == store.read("g1")[-1]["hash"]
    assert verify_signature(signed["signed_head"], signed["signature"], {keyring.active.key_id: keyring.active.key}) \
        is None
