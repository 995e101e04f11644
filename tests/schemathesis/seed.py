"""Gives the fuzzed server something to find before deploy/schemathesis.sh runs.

Logs in as the bootstrap admin, then makes a few resources with small ids, the ids
hypothesis tries first, so that generated requests reach the handlers' real work and
not only their 404s: a table with a game running (the admin at seat 0, two bots), a
table still waiting for players, a tournament open for registration and one just
created. Prints the admin's bearer token on stdout, nothing else; progress and
failures go to stderr.
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

    def call(self, method: str, path: str, expected: int, body=None) -> dict:
        response = self.session.request(
            method, self.base_url + path, json=body, timeout=30
        )
        if response.status_code != expected:
            fail(
                f"{method} {path} answered {response.status_code}, "
                f"expected {expected}: {response.text[:500]}"
            )
        return response.json() if response.content else {}


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
    opened = api.call("POST", "/v1/tournaments", 201, cup)
    api.call(
        "POST",
        f"/v1/tournaments/{opened['id']}/commands",
        200,
        {"command": "open_registration"},
    )
    api.call("POST", "/v1/tournaments", 201, dict(cup, name="Fuzz shield"))

    print(token)


if __name__ == "__main__":
    main()
