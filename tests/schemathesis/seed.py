"""Gives the fuzzed server something to find before deploy/schemathesis.sh runs.

Logs in as the bootstrap admin, then makes a few resources with small ids, the ids
schemathesis.toml steers half of the ids to, so that generated requests reach the
handlers' real work and not only their 404s: table 1 with a game running (the admin at
seat 0, two bots), table 2 still waiting for players, tournament 1 in its qualification
with round 1 drawn and its one table left to paper (so that stage 1, round 1, table 1
can still get an online game), and tournament 2 open for registration. Prints the
admin's bearer token on stdout, nothing else; progress and failures go to stderr.
"""

import argparse
import sys

import requests


def fail(message: str) -> None:
    print(f"[schemathesis] seed: {message}", file=sys.stderr)
    sys.exit(1)


class Api:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.session = requests.Session()

    def call(
        self, method: str, path: str, expected: int, body=None, token=None
    ) -> dict:
        headers = {"authorization": f"Bearer {token}"} if token else None
        response = self.session.request(
            method, self.base_url + path, json=body, headers=headers, timeout=30
        )
        if response.status_code != expected:
            fail(
                f"{method} {path} answered {response.status_code}, "
                f"expected {expected}: {response.text[:500]}"
            )
        return response.json() if response.content else {}


def command(api: Api, tournament: int, name: str, token=None, **fields) -> None:
    body = {"command": name, **fields}
    api.call("POST", f"/v1/tournaments/{tournament}/commands", 200, body, token)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    args = parser.parse_args()

    api = Api(args.base_url)
    login = {"username": args.username, "password": args.password}
    token = api.call("POST", "/v1/sessions", 201, login)["token"]
    api.session.headers["authorization"] = f"Bearer {token}"

    bots = [{"seat": 1, "kind": "greedy"}, {"seat": 2, "kind": "random"}]
    running = api.call(
        "POST", "/v1/tables", 201, {"preset": "israeli", "seats": 3, "bots": bots}
    )
    api.call("POST", f"/v1/tables/{running['id']}/join", 200)
    api.call("POST", f"/v1/tables/{running['id']}/start", 200)
    api.call("POST", "/v1/tables", 201, {"preset": "belgian", "seats": 4})

    cup = {"name": "Fuzz cup", "rules": {"preset": "belgian"}, "capacity": 8}
    drawn = api.call("POST", "/v1/tournaments", 201, cup)["id"]
    opened = api.call("POST", "/v1/tournaments", 201, dict(cup, name="Fuzz shield"))
    for tournament in (drawn, opened["id"]):
        command(api, tournament, "open_registration")
    # Officials do not play, so the players are accounts of their own.
    for number in range(4):
        username = f"fuzz-player-{number}"
        password = f"{username}-Zt4-disposable"
        account = api.call(
            "POST", "/v1/accounts", 201, {"username": username, "password": password}
        )
        login = {"username": username, "password": password}
        player = api.call("POST", "/v1/sessions", 201, login)["token"]
        for name in ("register", "check_in"):
            command(api, drawn, name, token=player, player=account["id"])
    command(api, drawn, "close_registration")
    command(api, drawn, "start_qualification")
    api.call("POST", f"/v1/tournaments/{drawn}/draws", 200, {"paper_tables": [1]})

    print(token)


if __name__ == "__main__":
    main()
