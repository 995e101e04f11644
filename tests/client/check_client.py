"""What a client developer does with openapi/openapi.json, as a test.

Run by deploy/client-test.sh (which provides the pinned tools) against a running server:

    python check_client.py --spec openapi/openapi.json --base-url http://127.0.0.1:8080 \
        --work DIR [--admin-username U --admin-password P]

In order, each step failing the run with a message that names what is wrong:

1. generates a Python client with openapi-python-client; any line of its output other
   than its banner (a skipped operation, an unsupported schema, a duplicate model) fails;
2. checks that every operation of the document became a function of the client, and
   that the answers a client reads most have model classes, not dicts;
3. validates every example of the document (request bodies, responses, schemas and
   their properties) and the game-record fixtures against their schemas with a JSON
   Schema validator, and checks that it refuses a few invalid bodies;
4. through the generated client only: registers an account, logs in, creates a table
   with two bots, joins, starts, and plays the whole game, choosing each move from the
   view's `legal` field and sending it with the client's action call; then reads the
   table's live stream (NDJSON, from its start) and validates every message against
   `TableStreamMessage`;
5. with the admin's credentials: runs a tournament up to its first draw with the client's
   command and draw calls, and reads the draw, standings, stages, ranking and events as
   model instances.

Progress goes to stderr; the exit status is 0 only when everything passed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pathlib
import random
import re
import secrets
import subprocess
import sys
import time
import traceback
import urllib.request
from typing import Any, Iterator

import attrs
import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

PACKAGE = "yaniv_client"
SCHEMAS = "#/components/schemas/"

# The answers a client developer reads most: each must be a model class, and so must
# what they hold (checked again on live answers in steps 4 and 5).
TYPED_MODELS = {
    "TableView": ["table", "legal", "game"],
    "StandingsResponse": ["standings"],
    "StagesResponse": ["stages"],
    "RankingResponse": ["ranking"],
    "DrawResponse": ["tournament", "events", "online_tables"],
}


class Failure(Exception):
    """A check that did not pass; its message says which and why."""


def log(message: str) -> None:
    print(f"[client-test] {message}", file=sys.stderr, flush=True)


def check(condition: bool, message: str) -> None:
    if not condition:
        raise Failure(message)


# ----------------------------------------------------------------- 1. generation


def json_bodies_only(spec: pathlib.Path, work: pathlib.Path) -> pathlib.Path:
    """A copy of the document whose request bodies offered both as JSON and in another
    media type (a door list as CSV) keep only JSON: a generated client sends JSON, and
    the generator refuses a `text/csv` body. Nothing else changes, so every operation
    must still come out of the generator."""
    document = json.loads(spec.read_text())
    for path, method, operation in operations(document):
        content = operation.get("requestBody", {}).get("content", {})
        if "application/json" in content and len(content) > 1:
            dropped = sorted(set(content) - {"application/json"})
            log(f"{method.upper()} {path}: the client sends JSON (not {', '.join(dropped)})")
            operation["requestBody"]["content"] = {"application/json": content["application/json"]}
    copy = work / "openapi-json-bodies.json"
    copy.write_text(json.dumps(document))
    return copy


def generate(spec: pathlib.Path, work: pathlib.Path) -> Any:
    """Generates the client into `work` and imports it."""
    output = work / PACKAGE
    command = [
        "openapi-python-client",
        "generate",
        "--path",
        str(json_bodies_only(spec, work)),
        "--meta",
        "none",
        "--output-path",
        str(output),
        "--overwrite",
    ]
    log(f"generating the client: {' '.join(command)}")
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    printed = (run.stdout + run.stderr).splitlines()
    # The generator reports what it skipped or could not type in prose, with exit status
    # 0: every line but its banner is such a report.
    complaints = [
        line for line in printed if line.strip() and not line.startswith("Generating ")
    ]
    check(
        run.returncode == 0 and not complaints,
        "openapi-python-client did not generate the whole document (exit status "
        f"{run.returncode}):\n" + "\n".join(printed),
    )
    sys.path.insert(0, str(work))
    return importlib.import_module(PACKAGE)


# ---------------------------------------------------------- 2. operations, models


def operations(spec: dict) -> Iterator[tuple[str, str, dict]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "put", "post", "delete", "patch"):
                yield path, method, operation


def snake(text: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", text).replace("-", "_").lower()


def check_operations(spec: dict, work: pathlib.Path) -> None:
    generated = {p.stem for p in (work / PACKAGE / "api").glob("*/*.py")}
    expected = [(path, method, op["operationId"]) for path, method, op in operations(spec)]
    missing = [
        f"{method.upper()} {path} ({operation_id})"
        for path, method, operation_id in expected
        if snake(operation_id) not in generated
    ]
    check(not missing, "operations without a client function: " + ", ".join(missing))
    log(f"each of the {len(expected)} operations has its function")


def check_models() -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    for name, fields in TYPED_MODELS.items():
        cls = getattr(models, name, None)
        check(cls is not None and attrs.has(cls), f"no model class {name}")
        names = {f.name for f in attrs.fields(cls)}
        for field in fields:
            check(field in names, f"{name} has no typed field {field}")
    log("model classes exist for " + ", ".join(TYPED_MODELS))


def is_model(value: Any) -> bool:
    return attrs.has(type(value))


def check_typed(value: Any, what: str) -> None:
    """`value` is a model instance, and so is every object inside it: no dicts."""
    check(is_model(value), f"{what} is a {type(value).__name__}, not a model")
    for field in attrs.fields(type(value)):
        if field.name == "additional_properties":
            continue
        inner = getattr(value, field.name)
        items = inner if isinstance(inner, list) else [inner]
        for item in items:
            check(not isinstance(item, dict), f"{what}.{field.name} is a dict")
            if is_model(item):
                check_typed(item, f"{what}.{field.name}")


# ------------------------------------------------------------- 3. examples


class Examples:
    """Every example of the document, each with the JSON pointer of its schema."""

    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self.found: list[tuple[str, str, Any]] = []

    def schemas(self, schema: Any, pointer: str) -> None:
        if isinstance(schema, dict):
            if "example" in schema:
                self.found.append((pointer, pointer, schema["example"]))
            for i, example in enumerate(schema.get("examples") or []):
                self.found.append((f"{pointer}/examples/{i}", pointer, example))
            for key, value in schema.items():
                if key not in ("example", "examples"):
                    self.schemas(value, f"{pointer}/{escape(key)}")
        elif isinstance(schema, list):
            for i, value in enumerate(schema):
                self.schemas(value, f"{pointer}/{i}")

    def media(self, content: dict, pointer: str) -> None:
        for media_type, media in content.items():
            where = f"{pointer}/{escape(media_type)}"
            schema = f"{where}/schema"
            if "example" in media:
                self.found.append((f"{where}/example", schema, media["example"]))
            for name, example in (media.get("examples") or {}).items():
                if "value" in example:
                    self.found.append((f"{where}/examples/{name}", schema, example["value"]))
            self.schemas(media.get("schema"), schema)

    def collect(self) -> list[tuple[str, str, Any]]:
        self.schemas(self.spec["components"]["schemas"], "#/components/schemas")
        for path, method, op in operations(self.spec):
            at = f"#/paths/{escape(path)}/{method}"
            body = op.get("requestBody")
            if body:
                self.media(body.get("content", {}), f"{at}/requestBody/content")
            for status, response in op["responses"].items():
                self.media(response.get("content", {}), f"{at}/responses/{status}/content")
            for i, parameter in enumerate(op.get("parameters", [])):
                self.schemas(parameter.get("schema"), f"{at}/parameters/{i}/schema")
        return self.found


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def validator_for(spec: dict, pointer: str) -> jsonschema.protocols.Validator:
    """A validator of the schema at `pointer` in the document, its refs resolved."""
    registry = Registry().with_resource(
        "urn:openapi", Resource.from_contents(spec, default_specification=DRAFT202012)
    )
    return jsonschema.Draft202012Validator({"$ref": "urn:openapi" + pointer}, registry=registry)


def errors(spec: dict, pointer: str, instance: Any) -> list[str]:
    validator = validator_for(spec, pointer)
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:300]}"
        for e in validator.iter_errors(instance)
    ]


def check_examples(spec: dict, root: pathlib.Path) -> None:
    found = Examples(spec).collect()
    bad = []
    for where, schema, example in found:
        problems = errors(spec, schema, example)
        if problems:
            bad.append(f"{where} against {schema}:\n    " + "\n    ".join(problems))
    check(not bad, "examples refused by their own schema:\n" + "\n".join(bad))
    check(len(found) >= 20, f"only {len(found)} examples found: the walk is broken")
    log(f"{len(found)} examples of the document validate against their schemas")

    # The conformance fixtures are real records and results: the schemas must accept
    # them all (those named error_* are records the engine refuses on purpose).
    fixtures = root / "domain" / "tests" / "fixtures" / "records"
    count = 0
    for path in sorted(fixtures.glob("*.json")):
        if path.name.startswith("error_"):
            continue
        schema = "ReplayResult" if path.name.endswith(".expected.json") else "GameRecord"
        problems = errors(spec, SCHEMAS + schema, json.loads(path.read_text()))
        check(not problems, f"{path.name} is refused by {schema}: {problems}")
        count += 1
    check(count >= 5, f"only {count} record fixtures found in {fixtures}")
    log(f"{count} record fixtures validate against GameRecord / ReplayResult")

    # Valid bodies of each union are accepted, and the validator does refuse.
    accepted = [
        ("TournamentCommand", {"command": "register", "player": 12}),
        ("TournamentCommand", {"command": "finish"}),
        ("ActionRequest", {"type": "call"}),
        ("ActionRequest", {"type": "play", "throw": ["8S"], "draw": "stock"}),
        ("ActionRequest", {"type": "play", "throw": ["8S"], "draw": {"discard": "7H"}}),
    ]
    refused = [
        ("TournamentCommand", {"command": "register"}),
        ("TournamentCommand", {"command": "no_such_command"}),
        ("ActionRequest", {"type": "play", "throw": ["8S"]}),
        ("CreateTournamentRequest", {"name": "Cup", "rules": {"preset": "nope"}, "capacity": 8}),
        ("CreateTournamentRequest", {"name": "Cup", "rules": {"preset": "belgian"}, "capacity": 1}),
        ("RegisterRequest", {"username": "al", "password": "long enough"}),
    ]
    for schema, body in accepted:
        problems = errors(spec, SCHEMAS + schema, body)
        check(not problems, f"{schema} refuses the valid body {body}: {problems}")
    for schema, body in refused:
        check(errors(spec, SCHEMAS + schema, body) != [], f"{schema} accepts {body}")
    log(f"{len(accepted)} valid bodies accepted, {len(refused)} invalid ones refused")


# ------------------------------------------------------------------ 4. a game


def ok(response: Any, status: int, what: str) -> Any:
    """The parsed answer, when `response` has `status`."""
    check(
        int(response.status_code) == status,
        f"{what}: expected {status}, got {int(response.status_code)}: "
        f"{response.content[:500]!r}",
    )
    check(response.parsed is not None, f"{what}: the client did not parse the answer")
    return response.parsed


class Api:
    """The generated client's modules and models, looked up by name."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.client = importlib.import_module(PACKAGE)
        self.models = importlib.import_module(f"{PACKAGE}.models")

    def op(self, tag: str, name: str) -> Any:
        return importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")

    def model(self, name: str) -> Any:
        cls = getattr(self.models, name, None)
        check(cls is not None, f"the client has no model {name}")
        return cls

    def anonymous(self) -> Any:
        return self.client.Client(base_url=self.base_url, timeout=60.0)

    def login(self, username: str, password: str) -> tuple[Any, Any]:
        m = self.model
        session = ok(
            self.op("sessions", "sessions_login").sync_detailed(
                client=self.anonymous(),
                body=m("LoginRequest")(username=username, password=password),
            ),
            201,
            f"logging in as {username}",
        )
        client = self.client.AuthenticatedClient(
            base_url=self.base_url, token=session.token, timeout=60.0
        )
        return client, session.account

    def register(self, username: str, password: str) -> tuple[Any, Any]:
        m = self.model
        ok(
            self.op("accounts", "accounts_register").sync_detailed(
                client=self.anonymous(),
                body=m("RegisterRequest")(username=username, password=password),
            ),
            201,
            f"registering {username}",
        )
        return self.login(username, password)


def choose(api: Api, view: Any, rng: random.Random) -> Any:
    """One move among those the view's `legal` lists, as the client's action body."""
    m = api.model
    legal = view.legal
    # Bonus rules (absent from `legal` when empty): keep a card of a waterfall passed to
    # us; now and then pass one of our own.
    if legal.waterfall_pick:
        return m("ActionRequestWaterfallPick")(
            type_=m("ActionRequestWaterfallPickType")("waterfall_pick"),
            card=rng.choice(legal.waterfall_pick),
        )
    if legal.waterfalls and rng.random() < 0.5:
        return m("ActionRequestWaterfall")(
            type_=m("ActionRequestWaterfallType")("waterfall"), cards=rng.choice(legal.waterfalls)
        )
    # Fifths Disease: the five of diamonds kills a pile whenever it may.
    if legal.kill_piles:
        return m("ActionRequestKillPile")(
            type_=m("ActionRequestKillPileType")("kill_pile"), size=rng.choice(legal.kill_piles)
        )
    if legal.go_along:
        return m("ActionRequestGoAlong")(
            type_=m("ActionRequestGoAlongType")("go_along"), going=rng.random() < 0.5
        )
    if legal.onderkluft:
        return m("ActionRequestOnderkluft")(
            type_=m("ActionRequestOnderkluftType")("onderkluft"), challenge=rng.random() < 0.5
        )
    if legal.call:
        return m("ActionRequestCall")(type_=m("ActionRequestCallType")("call"))
    if legal.throws:
        throw = rng.choice(legal.throws)
        # Cell Division: what a throw may draw depends on its size.
        takes = legal.draw_from_discard
        if legal.discard_draws:
            takes = next((d.cards for d in legal.discard_draws if d.size == len(throw)), [])
        if takes and (not legal.draw_from_stock or rng.random() < 0.5):
            draw = m("DiscardDraw")(discard=rng.choice(takes))
        else:
            draw = m("StockDraw")("stock")
        play = m("ActionRequestPlay")(
            type_=m("ActionRequestPlayType")("play"), throw=throw, draw=draw
        )
        # Crazy queens: a throw with a queen that leaves cards names a target and a card.
        left = list(view.hand)
        for card in throw:
            left.remove(card)
        if legal.queen_targets and left and any(c.startswith("Q") for c in throw):
            play.queen = m("QueenRequest")(
                target=rng.choice(legal.queen_targets), give=rng.choice(left)
            )
        return play
    if isinstance(legal.slap, str):
        return m("ActionRequestSlap")(type_=m("ActionRequestSlapType")("slap"), card=legal.slap)
    if legal.add_ons:
        return m("ActionRequestAddOn")(
            type_=m("ActionRequestAddOnType")("add_on"), cards=legal.add_ons[0]
        )
    return None


def check_stream(spec: dict, api: Api, client: Any, table_id: int, version: int) -> None:
    """Reads the finished table's live stream from its start as NDJSON, up to the view
    after its last event, and validates every message against `TableStreamMessage`."""
    request = urllib.request.Request(
        f"{api.base_url}/v1/tables/{table_id}/stream?after=0",
        headers={"Authorization": f"Bearer {client.token}", "Accept": "application/x-ndjson"},
    )
    pointer = SCHEMAS + "TableStreamMessage"
    kinds: dict[str, int] = {}
    last_event = 0
    with urllib.request.urlopen(request, timeout=60) as stream:
        check(
            stream.headers.get("content-type", "").startswith("application/x-ndjson"),
            f"the stream came as {stream.headers.get('content-type')}",
        )
        for raw in stream:
            line = raw.decode().strip()
            if not line:
                continue  # a heartbeat
            message = json.loads(line)
            problems = errors(spec, pointer, message)
            check(not problems, f"stream message {line[:200]}: {problems}")
            kinds[message["kind"]] = kinds.get(message["kind"], 0) + 1
            if message["kind"] == "event":
                check(message["id"] == last_event + 1, f"event {message['id']} after {last_event}")
                last_event = message["id"]
            if message["kind"] == "view" and last_event == version:
                break
    log(f"table {table_id}: the stream's {sum(kinds.values())} messages fit the schema: {kinds}")


def play_a_game(
    api: Api,
    seed: int,
    preset: str = "israeli",
    bonus: list[str] = (),
    spec: dict | None = None,
) -> None:
    """A whole game against two bots under `preset` (and the bonus rules `bonus`); with
    `spec`, its stream is read back and checked against the document."""
    m = api.model
    rng = random.Random(seed)
    name = f"client-{secrets.token_hex(4)}"
    client, account = api.register(name, "client-test-password")
    log(f"registered and logged in as {name} (account {account.id})")
    bots = [
        m("BotSeatRequest")(seat=1, kind=m("BotKindName")("greedy")),
        m("BotSeatRequest")(seat=2, kind=m("BotKindName")("random")),
    ]
    request = m("CreateTableRequest")(preset=m("Preset")(preset), seats=3, bots=bots)
    if bonus:
        request.overrides = m("RuleOverrides")(bonus_rules=[m("BonusRule")(b) for b in bonus])
    table = ok(
        api.op("tables", "tables_create").sync_detailed(client=client, body=request),
        201,
        "creating a table",
    )
    table_id = table.id
    # An explicit body: the generated call JSON-encodes its `UNSET` default when the
    # body is optional; the server takes `{"seat": 0}` as well as no body.
    join = api.op("tables", "tables_join")
    ok(join.sync_detailed(table_id, client=client, body=m("JoinRequest")(seat=0)), 200, "joining")
    ok(api.op("tables", "tables_start").sync_detailed(table_id, client=client), 200, "starting")
    log(f"table {table_id}: joined seat 0 and started against two bots")
    act = api.op("tables", "tables_act")
    view_op = api.op("tables", "tables_view")
    moves = 0
    kinds: dict[str, int] = {}
    deadline = time.monotonic() + 300
    while True:
        view = ok(view_op.sync_detailed(table_id, client=client), 200, "reading the view")
        check_typed(view, "TableView")
        if view.table.status.value == "finished":
            break
        check(time.monotonic() < deadline and moves < 3000, "the game did not end in time")
        check(is_model(view.legal), f"no legal actions for the seated player: {view.legal!r}")
        body = choose(api, view, rng)
        check(body is not None, f"nothing legal to do at move {moves}: {view.legal!r}")
        answer = ok(
            act.sync_detailed(
                table_id, client=client, body=body, idempotency_key=f"move-{moves}"
            ),
            200,
            f"move {moves} ({body.to_dict()})",
        )
        check_typed(answer, "ActionResponse")
        moves += 1
        sent = body.to_dict()
        kind = "queen" if "queen" in sent else sent["type"]
        if kind == "play" and isinstance(sent.get("draw"), dict):
            kind = "play, drawing a discard"
        kinds[kind] = kinds.get(kind, 0) + 1
    standings = view.table.standings
    check(isinstance(standings, list) and standings, "a finished table without standings")
    log(
        f"table {table_id}: the game ended after {moves} moves of ours; winner: "
        f"{standings[0].name} with {standings[0].total}; moves by kind: {kinds}"
    )
    if spec is not None:
        check_stream(spec, api, client, table_id, view.table.version)


# ------------------------------------------------------------ 5. a tournament


def command(api: Api, client: Any, tournament: int, name: str, **fields: Any) -> Any:
    """Sends the tournament command `name` as its own model, tagged by `command`."""
    model = api.model("TournamentCommand" + "".join(w.title() for w in name.split("_")))
    tag = api.model(model.__name__ + "Command")(name)
    body = model(command=tag, **fields)
    answer = ok(
        api.op("tournaments", "tournaments_command").sync_detailed(
            tournament, client=client, body=body
        ),
        200,
        f"tournament command {name}",
    )
    check_typed(answer, "CommandResponse")
    return answer


def run_a_tournament(api: Api, admin: str, password: str) -> None:
    m = api.model
    organizer, _ = api.login(admin, password)
    created = ok(
        api.op("tournaments", "tournaments_create").sync_detailed(
            client=organizer,
            body=m("CreateTournamentRequest")(
                name="Client cup",
                rules=m("RuleSpec")(preset=m("Preset")("belgian")),
                capacity=8,
            ),
        ),
        201,
        "creating a tournament",
    )
    check_typed(created, "TournamentSummary")
    tid = created.id
    command(api, organizer, tid, "open_registration")
    for i in range(4):
        player, account = api.register(f"cup-{secrets.token_hex(4)}", "cup-player-password")
        command(api, player, tid, "register", player=account.id)
        command(api, player, tid, "check_in", player=account.id)
    command(api, organizer, tid, "close_registration")
    command(api, organizer, tid, "start_qualification")
    draw = ok(
        api.op("tournaments", "tournaments_draw").sync_detailed(
            tid, client=organizer, body=m("DrawBody")()
        ),
        200,
        "drawing the first round",
    )
    check_typed(draw, "DrawResponse")
    check(len(draw.online_tables) == 1, f"one table of four expected: {draw.online_tables}")
    log(f"tournament {tid}: first round drawn, game table {draw.online_tables[0].game_table}")
    public = api.anonymous()
    for name, model in [
        ("tournaments_standings", "StandingsResponse"),
        ("tournaments_stages", "StagesResponse"),
        ("tournaments_ranking", "RankingResponse"),
        ("tournaments_events", "TournamentEventsPage"),
        ("tournaments_show", "TournamentSummary"),
    ]:
        answer = ok(api.op("tournaments", name).sync_detailed(tid, client=public), 200, name)
        check(isinstance(answer, m(model)), f"{name} answered a {type(answer).__name__}")
        check_typed(answer, model)
    standings = api.op("tournaments", "tournaments_standings").sync(tid, client=public)
    check(len(standings.standings) == 4, "four players in the standings")
    stages = api.op("tournaments", "tournaments_stages").sync(tid, client=public)
    check(len(stages.stages[0].rounds[0].tables) == 1, "one table in the first round")
    events = api.op("tournaments", "tournaments_events").sync(tid, client=public)
    kinds = {type(e.payload).__name__ for e in events.events}
    check(
        "TournamentEventPayloadRoundDrawnV1" in kinds,
        f"the events page does not type the draw: {sorted(kinds)}",
    )
    log(f"tournament {tid}: draw, standings, stages, ranking and events read as models")


# ---------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", required=True, type=pathlib.Path)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--work", required=True, type=pathlib.Path)
    parser.add_argument("--admin-username")
    parser.add_argument("--admin-password")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    root = pathlib.Path(__file__).resolve().parents[2]
    spec = json.loads(args.spec.read_text())
    # (name, whether it needs the generated client, check)
    steps = [
        ("generate the client", True, lambda: generate(args.spec, args.work)),
        ("every operation has a function", True, lambda: check_operations(spec, args.work)),
        ("typed models", True, check_models),
        ("examples validate", False, lambda: check_examples(spec, root)),
        (
            "play a game against bots and read its stream",
            True,
            lambda: play_a_game(Api(args.base_url), args.seed, spec=spec),
        ),
        (
            "play a game under the crazy_queens and waterfall bonus rules",
            True,
            lambda: play_a_game(
                Api(args.base_url), args.seed, "house", ["crazy_queens", "waterfall"]
            ),
        ),
        (
            "play a game under the cell_division, osmosis and fifths_disease bonus rules",
            True,
            lambda: play_a_game(
                Api(args.base_url),
                args.seed,
                "house",
                ["cell_division", "osmosis", "fifths_disease"],
            ),
        ),
    ]
    if args.admin_username and args.admin_password:
        admin = (args.admin_username, args.admin_password)
        steps.append(
            (
                "run a tournament to its first draw",
                True,
                lambda: run_a_tournament(Api(args.base_url), *admin),
            )
        )
    else:
        log("no admin credentials: the tournament step is skipped")
    failed = []
    for name, needs_client, step in steps:
        if needs_client and "generate the client" in failed:
            log(f"not run: {name} (no client)")
            failed.append(name)
            continue
        log(f"step: {name}")
        try:
            step()
        except Failure as failure:
            log(f"FAILED: {name}: {failure}")
            failed.append(name)
        except Exception:  # a client that does not work as generated is a failure too
            log(f"FAILED: {name}:\n{traceback.format_exc()}")
            failed.append(name)
    passed = len(steps) - len(failed)
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
