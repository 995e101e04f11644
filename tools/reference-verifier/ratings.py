"""Recompute the rating list (yaniv-ratings/1) from championship archives and the
rated casual tables' rows.

Written from docs/ratings.md alone: which games are rated and in what order (section
4), the Weng-Lin Plackett-Luce update of one game (sections 2 and 3) and the list
(section 5). Python 3.11, standard library only.

    python3 ratings.py [--no-verify] [--tables TABLES] [--to MICROS] [--from MICROS] [--min-games N] ARCHIVE...
    python3 ratings.py [--no-verify] [--tables TABLES] --seeding SEEDED ARCHIVE...

TABLES is what GET /v1/ratings/tables answers (yaniv-rated-tables/1): the rows of the
rated casual tables. Without it only tournament games are folded.

Each archive is first checked with verify_archive.py (same folder); one that does not
check out stops the run (exit 1) unless --no-verify is given. With --seeding, SEEDED is
the archive of a tournament seeded by rating (section 6): its recorded seeding is
compared with the order the list of the other archives gives as of its instant; the
verdict is printed and the exit status is 1 when they differ.
"""

import argparse
import json
import math
import os
import sys

MU0 = 25.0
SIGMA0 = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001


def rate_game(lines):
    """lines: [(mu, sigma, place)] in result order; returns [(mu, sigma)]."""
    n = len(lines)
    if n < 2:
        raise ValueError("a rated game needs at least two players")
    cap = SIGMA0 * SIGMA0
    v = []
    for mu, sigma, _ in lines:
        x = sigma * sigma + TAU * TAU
        if x > cap:
            x = cap
        v.append(x)
    c2 = 0.0
    for x in v:
        c2 = c2 + (x + BETA * BETA)
    c = math.sqrt(c2)
    e = [math.exp(mu / c) for mu, _, _ in lines]
    places = [place for _, _, place in lines]
    S = []
    A = []
    for q in range(n):
        total = 0.0
        for k in range(n):
            if places[k] >= places[q]:
                total = total + e[k]
        S.append(total)
        A.append(float(sum(1 for k in range(n) if places[k] == places[q])))
    out = []
    for i in range(n):
        omega = 0.0
        delta = 0.0
        for q in range(n):
            if places[q] > places[i]:
                continue
            p = e[i] / S[q]
            if q == i:
                omega = omega + (1.0 - p) / A[q]
            else:
                omega = omega - p / A[q]
            delta = delta + p * (1.0 - p) / A[q]
        s = math.sqrt(v[i])
        mu = lines[i][0] + (v[i] / c) * omega
        share = ((s / c) * (v[i] / c2)) * delta
        kept = 1.0 - share
        if kept < KAPPA:
            kept = KAPPA
        out.append((mu, s * math.sqrt(kept)))
    return out


def table_key(table):
    return (table["stage"], table["round"], table["table"])


# Between games of the same position time, tournament games come first (by tournament,
# then stage, round, table), then casual tables (by table id): the first element of a
# game's source key.
TOURNAMENT_GAME = 0
CASUAL_GAME = 1


def rated_games(archive):
    """The rated games of one archive's tournament: [(time, source key, lines)]."""
    tid = archive["tournament_id"]
    stream = None
    for s in archive["streams"]:
        if s["stream_id"] == "tournament-%d" % tid:
            stream = s
    if stream is None:
        raise ValueError("archive of tournament %d has no tournament stream" % tid)
    rated = True
    in_force = {}
    for row in sorted(stream["events"], key=lambda r: r["version"]):
        event = json.loads(row["payload"])
        kind = row["type"]
        at = row["recorded_at_micros"]
        if kind == "tournament_created.v1" or kind == "stages_configured.v1":
            rated = event["config"].get("rated", True)
        elif kind == "result_recorded.v1":
            in_force[table_key(event["table"])] = (at, event["result"])
        elif kind == "result_corrected.v1":
            key = table_key(event["table"])
            position = in_force[key][0] if key in in_force else at
            in_force[key] = (position, event["result"])
        elif kind == "game_voided.v1":
            in_force.pop(table_key(event["table"]), None)
        elif kind == "round_redrawn.v1":
            for key in [k for k in in_force if k[0] == event["stage"] and k[1] == event["round"]]:
                del in_force[key]
    if not rated:
        return []
    return [(at, (TOURNAMENT_GAME, tid) + key,
             [(line["player"], line["place"]) for line in result])
            for key, (at, result) in in_force.items()]


def casual_games(tables):
    """The rated games of a yaniv-rated-tables/1 document: one per rated casual table
    whose game finished with two humans or more (section 4, "Casual tables")."""
    if tables.get("format") != "yaniv-rated-tables/1":
        raise ValueError("not a yaniv-rated-tables/1 document")
    streams = {}
    for row in tables["rows"]:
        streams.setdefault(row["stream_id"], []).append(row)
    games = []
    for stream_id, rows in streams.items():
        table_id = int(stream_id[len("table-"):])
        rated, bots, humans, finished = False, set(), {}, None
        for row in sorted(rows, key=lambda r: r["version"]):
            event = json.loads(row["payload"])
            kind = row["type"]
            if kind == "table_created.v1":
                rated = event.get("rated", False) is True and "tournament" not in event
                bots = {b["seat"] for b in event.get("bots", [])}
            elif kind == "seat_taken.v1":
                humans[event["seat"]] = event["account_id"]
            elif kind == "seat_left.v1":
                humans.pop(event["seat"], None)
            elif kind == "game_finished.v1":
                finished = (row["recorded_at_micros"], event["standings"])
        if not rated or finished is None:
            continue
        at, standings = finished
        seated = [(humans[s["seat"]], s["place"]) for s in standings
                  if s["seat"] not in bots and s["seat"] in humans]
        if len(seated) < 2:
            continue
        lines = [(player, 1 + sum(1 for _, q in seated if q < place))
                 for player, place in seated]
        games.append((at, (CASUAL_GAME, table_id), lines))
    return games


def rating_list(archives, to=None, since=None, min_games=0, tables=None):
    games = []
    for archive in archives:
        games.extend(rated_games(archive))
    if tables is not None:
        games.extend(casual_games(tables))
    games.sort(key=lambda g: (g[0], g[1]))
    players = {}  # account -> [mu, sigma, games, last]
    folded = 0
    for at, _source, lines in games:
        if to is not None and at >= to:
            break
        folded += 1
        accounts = [p for p, _ in lines]
        if len(set(accounts)) != len(accounts):
            raise ValueError("a player appears twice in one game")
        before = [players.get(p, [MU0, SIGMA0, 0, None]) for p in accounts]
        after = rate_game([(b[0], b[1], place) for b, (_, place) in zip(before, lines)])
        for (player, _), b, (mu, sigma) in zip(lines, before, after):
            players[player] = [mu, sigma, b[2] + 1, at]
    rows = [(p, s) for p, s in players.items()
            if s[2] >= min_games and (since is None or s[3] >= since)]
    rows.sort(key=lambda r: (-(r[1][0] - 3.0 * r[1][1]), -r[1][0], r[0]))
    return {
        "format": "yaniv-ratings/1",
        "games": folded,
        "ratings": [{"rank": i + 1, "player": p, "rating": s[0] - 3.0 * s[1], "mu": s[0],
                     "sigma": s[1], "games": s[2], "last_played_micros": s[3]}
                    for i, (p, s) in enumerate(rows)],
    }


def seeding_order(listing, entrants):
    """Section 6: the entrants in the list's order, then those not on it as given."""
    place = {row["player"]: i for i, row in enumerate(listing["ratings"])}
    rated = sorted((a for a in entrants if a in place), key=lambda a: place[a])
    return rated + [a for a in entrants if a not in place]


def check_seeding(seeded, archives, tables=None):
    """The verdict on the seeding recorded in `seeded` against the list of `archives`
    (and of the casual tables' rows `tables`, when given)."""
    tid = seeded["tournament_id"]
    events = next(s for s in seeded["streams"] if s["stream_id"] == "tournament-%s" % tid)["events"]
    registered, seeding = [], None
    for event in events:
        p = json.loads(event["payload"])
        if event["type"] in ("player_registered.v1", "player_entered_late.v1"):
            if p["player"] not in registered:
                registered.append(p["player"])
        if event["type"] == "stage_started.v1" and p["stage"] == 1:
            seeding = p.get("seeding")
            break
    if seeding is None:
        return {"ok": False, "tournament": tid, "error": "no seeding recorded"}
    listed = set(seeding["order"])
    entrants = [a for a in registered if a in listed]
    listing = rating_list([a for a in archives if a["tournament_id"] != tid],
                          to=seeding["as_of_micros"], tables=tables)
    expected = seeding_order(listing, entrants)
    return {"ok": expected == seeding["order"], "tournament": tid,
            "as_of_micros": seeding["as_of_micros"], "games": listing["games"],
            "recorded": seeding["order"], "expected": expected}


def main(argv=None):
    ap = argparse.ArgumentParser(description="Recompute the rating list from yaniv-archive/1 documents (docs/ratings.md).")
    ap.add_argument("archives", nargs="+", help="archive files")
    ap.add_argument("--no-verify", action="store_true", help="do not check the archives first")
    ap.add_argument("--to", type=int, help="only games with position time below this (microseconds)")
    ap.add_argument("--from", dest="since", type=int, help="only players who played at or after this (microseconds)")
    ap.add_argument("--min-games", type=int, default=0)
    ap.add_argument("--seeding", help="check the seeding of this archive against the others")
    ap.add_argument("--tables", help="the rated casual tables' rows (GET /v1/ratings/tables)")
    args = ap.parse_args(argv)
    tables = None
    if args.tables:
        try:
            with open(args.tables, "rb") as f:
                tables = json.loads(f.read().decode("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            print(json.dumps({"error": "unreadable input %s: %s" % (args.tables, e)}))
            return 2
        if tables.get("format") != "yaniv-rated-tables/1":
            print(json.dumps({"error": "%s is not a yaniv-rated-tables/1 document" % args.tables}))
            return 2
    archives = []
    for path in ([args.seeding] if args.seeding else []) + args.archives:
        try:
            with open(path, "rb") as f:
                doc = json.loads(f.read().decode("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            print(json.dumps({"error": "unreadable input %s: %s" % (path, e)}))
            return 2
        if doc.get("format") != "yaniv-archive/1":
            print(json.dumps({"error": "%s is not a yaniv-archive/1 document" % path}))
            return 2
        if not args.no_verify:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import verify_archive
            verdict = verify_archive.verify_document(doc)
            if not verdict["ok"]:
                print(json.dumps({"error": "%s does not verify" % path,
                                  "first_failure": verdict["first_failure"]}))
                return 1
        archives.append(doc)
    if args.seeding:
        verdict = check_seeding(archives[0], archives[1:], tables)
        print(json.dumps(verdict, indent=1))
        return 0 if verdict["ok"] else 1
    print(json.dumps(rating_list(archives, args.to, args.since, args.min_games, tables), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
