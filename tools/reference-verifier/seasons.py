"""Recompute a season's standings (yaniv-season/1) from tournament archives.

Written from docs/seasons.md alone (sections 2, 4 and 5), so that the server's
standings and a final's seeding have a second, independent implementation. Python 3.11,
standard library only.

    python3 seasons.py [--no-verify] --points 10,6,4 [--best 2] ARCHIVE...
    python3 seasons.py [--no-verify] --seeding FINAL ARCHIVE...

Each archive is first checked with verify_archive.py (same folder); one that does not
check out stops the run (exit 1) unless --no-verify is given. The first form prints the
standings of the archives' tournaments, in the order given (unfinished ones give no
results). The second checks the seeding FINAL recorded at its qualification's start
against the standings of the member archives it names: the verdict is printed, and the
exit status is 1 when the recorded order is not the recomputed one. Input that cannot
be judged (unreadable, a member missing or not named, no season seeding, a bad scale)
exits 2 with {"error": ...}.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import verify_archive  # noqa: E402  (the scale rule is shared with its seeding check)

FORMAT = "yaniv-season/1"


class Refused(Exception):
    """Input this tool cannot judge: reported as {"error"} with exit status 2."""


def tournament_events(archive):
    """The tournament's own stream, its payloads parsed, in version order."""
    sid = "tournament-%d" % archive["tournament_id"]
    for s in archive["streams"]:
        if s["stream_id"] == sid:
            rows = sorted(s["events"], key=lambda r: r["version"])
            return [(r["type"], json.loads(r["payload"])) for r in rows]
    raise Refused("archive of tournament %d has no tournament stream" % archive["tournament_id"])


def final_ranking(archive):
    """§2: the ranking of the first tournament_finished.v1, or None while unfinished.
    The first one, because a finished ranking never changes afterwards."""
    for etype, p in tournament_events(archive):
        if etype == "tournament_finished.v1":
            return p["ranking"]
    return None


def results(archives, points):
    """§2 Results: {player: [(points, place, tournament)]} and the tournaments that had
    finished, in the order given. Every ranking line is a result, withdrawn players
    included; a disqualified player has no line, so nothing to skip here."""
    by_player = {}
    finished = []
    for archive in archives:
        ranking = final_ranking(archive)
        if ranking is None:
            continue
        tid = archive["tournament_id"]
        if tid in finished:
            # §1: a tournament is in a series at most once; twice would count it twice.
            raise Refused("tournament %d given twice" % tid)
        finished.append(tid)
        for line in ranking:
            place = line["place"]
            earned = points[place - 1] if place <= len(points) else 0
            by_player.setdefault(line["player"], []).append((earned, place, tid))
    return by_player, finished


def standings(archives, points, best=None):
    """§2: the standings document of section 5 over `archives` in the order given."""
    by_player, finished = results(archives, points)
    rows = []
    for player, got in by_player.items():
        # What counts: more points first, then the better place, then the smaller id.
        ranked = sorted(got, key=lambda r: (-r[0], r[1], r[2]))
        counted = ranked if best is None else ranked[:best]
        rows.append({"player": player, "total": sum(r[0] for r in counted),
                     "counted": counted, "all": got})
    # Countback compares counted 1st places, then 2nd places, ... through every place,
    # so the key covers every place any counted result has.
    deepest = max((r[1] for row in rows for r in row["counted"]), default=0)
    for row in rows:
        tally = {}
        for r in row["counted"]:
            tally[r[1]] = tally.get(r[1], 0) + 1
        row["countback"] = tuple(-tally.get(k, 0) for k in range(1, deepest + 1))
    rows.sort(key=lambda row: (-row["total"], row["countback"], row["player"]))
    out = []
    for n, row in enumerate(rows):
        # Competition places: equal on total and countback share; the account id only
        # makes the order strict.
        if out and (row["total"], row["countback"]) == (rows[n - 1]["total"], rows[n - 1]["countback"]):
            place = out[-1]["place"]
        else:
            place = n + 1
        # The results are listed in the tournaments' order (the order given), one per
        # tournament; `counted` marks the ones the total is made of.
        counted = list(row["counted"])
        listed = []
        for r in sorted(row["all"], key=lambda r: finished.index(r[2])):
            is_counted = r in counted
            if is_counted:
                counted.remove(r)
            listed.append({"tournament": r[2], "place": r[1], "points": r[0], "counted": is_counted})
        out.append({"place": place, "player": row["player"], "total": row["total"], "results": listed})
    return {"format": FORMAT, "tournaments": finished, "standings": out}


def stage_one(archive):
    """The final's registration order and its stage-1 entrants at the start, and the
    seeding stage_started.v1 recorded. Entrants as docs/verification.md section 12
    folds them: registered (or entered) players who are checked in and neither
    withdrawn nor disqualified when stage 1 starts, in index (= registration) order."""
    players = []      # accounts, in the order they were first added (their index)
    state = {}        # account -> {"checked_in", "out"}
    for etype, p in tournament_events(archive):
        if etype in ("player_registered.v1", "player_entered_late.v1"):
            if p["player"] not in state:
                players.append(p["player"])
                state[p["player"]] = {"checked_in": False, "out": False}
            if etype == "player_entered_late.v1":
                state[p["player"]]["checked_in"] = True
        elif etype == "player_checked_in.v1":
            state[p["player"]]["checked_in"] = True
        elif etype == "player_check_in_undone.v1":
            state[p["player"]]["checked_in"] = False
        elif etype in ("player_withdrew.v1", "player_disqualified.v1"):
            state[p["player"]]["out"] = True
        elif etype == "stage_started.v1" and p["stage"] == 1:
            entrants = [a for a in players if state[a]["checked_in"] and not state[a]["out"]]
            # The event's own `dropped` says the same from the other side (the active
            # players not checked in); an archive whose events disagree with it is not
            # one this tool can judge, which matters under --no-verify.
            not_in = [a for a in players if not state[a]["out"] and not state[a]["checked_in"]]
            if p.get("dropped") != not_in:
                raise Refused("tournament %d: stage 1 drops %r, its events give %r"
                              % (archive["tournament_id"], p.get("dropped"), not_in))
            return players, entrants, p.get("seeding")
    raise Refused("tournament %d has not started its qualification" % archive["tournament_id"])


def seeding_order(table, entrants):
    """§4: the entrants in the standings' order, then those with no result in the
    season, in registration order (`entrants` is in it)."""
    placed = [row["player"] for row in table["standings"]]
    ranked = set(placed)
    listed = set(entrants)
    return [a for a in placed if a in listed] + [a for a in entrants if a not in ranked]


def check_seeding(final, members):
    """The verdict on the season seeding recorded in `final` against `members`."""
    tid = final["tournament_id"]
    _, entrants, seeding = stage_one(final)
    if not isinstance(seeding, dict):
        raise Refused("tournament %d recorded no seeding at stage 1" % tid)
    if seeding.get("procedure") != FORMAT:
        raise Refused("tournament %d is seeded by %r, not %s" % (tid, seeding.get("procedure"), FORMAT))
    season = seeding.get("season")
    if not isinstance(season, dict):
        raise Refused("tournament %d's seeding has no season" % tid)
    problem = verify_archive.season_scale_problem(season.get("points"), season.get("best"))
    if problem is not None:
        raise Refused("tournament %d's seeding: %s" % (tid, problem))
    named = season.get("tournaments")
    if not isinstance(named, list):
        raise Refused("tournament %d's seeding names no tournaments" % tid)
    given = {}
    for archive in members:
        if archive["tournament_id"] in given:
            raise Refused("tournament %d given twice" % archive["tournament_id"])
        given[archive["tournament_id"]] = archive
    missing = [t for t in named if t not in given]
    if missing:
        raise Refused("the seeding counts tournament(s) %s; no archive of them was given" % missing)
    extra = [t for t in given if t not in named]
    if extra:
        raise Refused("archive(s) of tournament(s) %s given; the seeding does not count them" % extra)
    # The seeding says these had finished; an archive that has not is another export
    # than the one the server read, and its absence would change the standings.
    unfinished = [t for t in named if final_ranking(given[t]) is None]
    if unfinished:
        raise Refused("the seeding counts tournament(s) %s as finished; their archives are not"
                      % unfinished)
    table = standings([given[t] for t in named], season["points"], season.get("best"))
    expected = seeding_order(table, entrants)
    recorded = seeding.get("order")
    return {"ok": expected == recorded, "tournament": tid, "season": season.get("season"),
            "recorded": recorded, "expected": expected}


def parse_points(text):
    """--points 10,6,4: the scale as a list, by the rule of docs/seasons.md §1."""
    try:
        points = [int(x) for x in text.split(",")]
    except ValueError:
        raise Refused("--points %r is not a comma-separated list of whole numbers" % text)
    return points


def load(path, verify):
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read().decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Refused("unreadable input %s: %s" % (path, e))
    if not isinstance(doc, dict) or doc.get("format") != "yaniv-archive/1":
        raise Refused("%s is not a yaniv-archive/1 document" % path)
    if verify:
        verdict = verify_archive.verify_document(doc)
        if not verdict["ok"]:
            return None, {"error": "%s does not verify" % path, "first_failure": verdict["first_failure"]}
    return doc, None


def main(argv=None):
    ap = argparse.ArgumentParser(description="Recompute season standings from yaniv-archive/1 documents (docs/seasons.md).")
    ap.add_argument("archives", nargs="+", help="archive files of the season's tournaments")
    ap.add_argument("--no-verify", action="store_true", help="do not check the archives first")
    ap.add_argument("--points", help="the scale: points of places 1, 2, 3, ... (e.g. 10,6,4)")
    ap.add_argument("--best", type=int, help="how many results count (default: all)")
    ap.add_argument("--seeding", help="check the season seeding of this final against the archives")
    args = ap.parse_args(argv)
    try:
        if args.seeding is not None and (args.points is not None or args.best is not None):
            raise Refused("--seeding takes the scale and count from the seeding: no --points or --best")
        if args.seeding is None:
            if args.points is None:
                raise Refused("--points is needed (or --seeding)")
            points = parse_points(args.points)
            problem = verify_archive.season_scale_problem(points, args.best)
            if problem is not None:
                raise Refused("bad --points/--best: %s" % problem)
        docs = []
        for path in ([args.seeding] if args.seeding else []) + args.archives:
            doc, failed = load(path, not args.no_verify)
            if failed is not None:
                print(json.dumps(failed))
                return 1
            docs.append(doc)
        if args.seeding:
            verdict = check_seeding(docs[0], docs[1:])
            print(json.dumps(verdict, indent=1))
            return 0 if verdict["ok"] else 1
        print(json.dumps(standings(docs, points, args.best), indent=1))
        return 0
    except Refused as e:
        print(json.dumps({"error": str(e)}))
        return 2
    except (KeyError, TypeError, ValueError, IndexError) as e:
        # Only reachable under --no-verify: a verified archive has these fields.
        print(json.dumps({"error": "malformed archive: %r" % (e,)}))
        return 2


if __name__ == "__main__":
    sys.exit(main())
