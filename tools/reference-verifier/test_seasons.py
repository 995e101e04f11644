"""Self-test of the season recomputation and of the verifier's season seedings
(standard library only).

Run: cd tools/reference-verifier && python3 -m unittest -v
"""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import seasons  # noqa: E402
import verify_archive as va  # noqa: E402

VECTORS = os.path.join(HERE, "..", "..", "tests", "fixtures", "verification")
SEEDED = os.path.join(VECTORS, "paper-seeded", "archive.json")        # tournament 2, by rating
KNOCKOUT = os.path.join(VECTORS, "paper-knockout", "archive.json")    # tournament 1, finished
RANDOM = os.path.join(VECTORS, "belgian-cup", "archive.json")         # tournament 1, random
SCRIPT = os.path.join(HERE, "seasons.py")


def load(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def row(version, etype, body):
    p = dict(body, type=etype)
    return {"version": version, "type": etype, "payload": json.dumps(p)}


def archive(tid, events):
    """A bare archive of one tournament stream, for the folds that read only events
    (used with --no-verify or the functions directly: it has no hashes)."""
    return {"format": "yaniv-archive/1", "tournament_id": tid,
            "streams": [{"stream_id": "tournament-%d" % tid,
                         "events": [row(i + 1, t, b) for i, (t, b) in enumerate(events)]}]}


def member(tid, placed, disqualified=(), withdrawn=()):
    """A finished tournament whose ranking gives `placed` [(player, place)] in order."""
    ranking = [{"place": place, "player": player, "reached": {"kind": "qualification"},
                "withdrawn": player in withdrawn} for player, place in placed]
    return archive(tid, [("tournament_created.v1", {"config": {}}),
                         ("tournament_finished.v1", {"ranking": ranking,
                                                     "disqualified": list(disqualified)})])


def unfinished(tid):
    return archive(tid, [("tournament_created.v1", {"config": {}})])


def by_place(places):
    """{player: place} -> [(player, place)] sorted by place, as a ranking lists them."""
    return sorted(places.items(), key=lambda kv: (kv[1], kv[0]))


def rows(table):
    return [(r["place"], r["player"], r["total"]) for r in table["standings"]]


def season_seeding(order, members, season=4, points=(10, 6, 4), best=2):
    return {"procedure": "yaniv-season/1", "as_of_micros": 1764662400000000,
            "season": {"season": season, "points": list(points), "best": best,
                       "tournaments": list(members)},
            "order": list(order)}


class Standings(unittest.TestCase):
    """docs/seasons.md section 2."""

    def test_the_worked_example(self):
        # The table of section 2: scale [10, 6, 4], best 2, members A, B, C.
        a = member(1, by_place({7: 1, 3: 2, 5: 3, 9: 4}))
        b = member(2, by_place({3: 1, 5: 2, 7: 3, 9: 4}))
        c = member(3, by_place({5: 1, 7: 2, 9: 3, 3: 4}))
        table = seasons.standings([a, b, c], [10, 6, 4], 2)
        self.assertEqual(table["format"], "yaniv-season/1")
        self.assertEqual(table["tournaments"], [1, 2, 3])
        # 3, 5 and 7 share place 1 (total 16, one 1st and one 2nd each), listed by id.
        self.assertEqual(rows(table), [(1, 3, 16), (1, 5, 16), (1, 7, 16), (4, 9, 4)])
        counted = {r["player"]: [(x["tournament"], x["points"], x["counted"]) for x in r["results"]]
                   for r in table["standings"]}
        self.assertEqual(counted[7], [(1, 10, True), (2, 4, False), (3, 6, True)])
        # Player 9's two zeros are equal on points and place: the smaller id counts.
        self.assertEqual(counted[9], [(1, 0, True), (2, 0, False), (3, 4, True)])

    def test_a_shared_place_earns_its_points_each(self):
        # Completely tied players share a ranking place and each earn that place's points.
        t = member(1, [(1, 1), (2, 2), (3, 2), (4, 4)])
        table = seasons.standings([t], [10, 6, 4], None)
        self.assertEqual(rows(table), [(1, 1, 10), (2, 2, 6), (2, 3, 6), (4, 4, 0)])

    def test_without_best_every_result_counts(self):
        ts = [member(1, [(1, 1), (2, 2)]), member(2, [(1, 2), (2, 1)]), member(3, [(1, 1), (2, 2)])]
        table = seasons.standings(ts, [10, 6], None)
        self.assertEqual(rows(table), [(1, 1, 26), (2, 2, 22)])
        self.assertTrue(all(x["counted"] for r in table["standings"] for x in r["results"]))
        # With best 1 only the 10 counts for both, and countback cannot part them.
        self.assertEqual(rows(seasons.standings(ts, [10, 6], 1)), [(1, 1, 10), (1, 2, 10)])

    def test_a_place_beyond_the_scale_is_a_result_of_zero(self):
        t = member(1, [(1, 1), (2, 2), (3, 3)])
        table = seasons.standings([t], [5], None)
        self.assertEqual(rows(table), [(1, 1, 5), (2, 2, 0), (3, 3, 0)])
        last = table["standings"][-1]["results"]
        self.assertEqual(last, [{"tournament": 1, "place": 3, "points": 0, "counted": True}])

    def test_a_disqualified_player_has_no_result(self):
        t = member(1, [(1, 1), (3, 2)], disqualified=[2])
        table = seasons.standings([t], [10, 6], None)
        self.assertNotIn(2, [r["player"] for r in table["standings"]])

    def test_a_withdrawn_player_keeps_the_place_the_ranking_gave(self):
        t = member(1, [(1, 1), (2, 2)], withdrawn=[2])
        self.assertEqual(rows(seasons.standings([t], [10, 6], None)), [(1, 1, 10), (2, 2, 6)])

    def test_an_unfinished_member_gives_no_results(self):
        table = seasons.standings([unfinished(1), member(2, [(5, 1)])], [10], None)
        self.assertEqual(table["tournaments"], [2])
        self.assertEqual(rows(table), [(1, 5, 10)])
        self.assertEqual(seasons.standings([unfinished(1)], [10], None)["standings"], [])

    def test_countback_before_the_account_id(self):
        # Equal totals of 12: 8 has a 1st (8 + 2 + 2), 2 has none (6 + 6 + 0), so 8 is
        # ahead although 2's account id is smaller.
        ts = [member(1, [(8, 1), (2, 2)]), member(2, [(2, 2), (8, 3)]), member(3, [(8, 3), (2, 4)])]
        table = seasons.standings(ts, [8, 6, 2, 0], None)
        self.assertEqual(rows(table), [(1, 8, 12), (2, 2, 12)])

    def test_a_tournament_given_twice_is_refused(self):
        t = member(1, [(1, 1)])
        with self.assertRaises(seasons.Refused):
            seasons.standings([t, t], [10], None)


def final(registered, checked_in, stage_extra=(), dropped=None, seeding=None, tid=20):
    """A bare final: registrations in order, check-ins, extra events, stage 1."""
    events = [("tournament_created.v1", {"config": {"seeding": "season", "season": 4}})]
    for n, a in enumerate(registered, start=1):
        events.append(("player_registered.v1", {"player": a, "by": "server", "order": n}))
    for a in checked_in:
        events.append(("player_checked_in.v1", {"player": a, "by": {"account": a}}))
    events.extend(stage_extra)
    if dropped is None:
        dropped = [a for a in registered if a not in checked_in]
    started = {"stage": 1, "kind": "qualification", "dropped": dropped}
    if seeding is not None:
        started["seeding"] = seeding
    events.append(("stage_started.v1", started))
    return archive(tid, events)


class Entrants(unittest.TestCase):
    """docs/verification.md section 12: stage 1's entrants are the checked-in players
    neither withdrawn nor disqualified, in index (registration) order."""

    def test_not_checked_in_withdrawn_and_disqualified_are_not_entrants(self):
        doc = final([9, 4, 7, 2, 5], [9, 4, 7, 2],
                    stage_extra=[("player_withdrew.v1", {"player": 7}),
                                 ("player_disqualified.v1", {"player": 2})],
                    dropped=[5])
        players, entrants, _ = seasons.stage_one(doc)
        self.assertEqual(players, [9, 4, 7, 2, 5])
        self.assertEqual(entrants, [9, 4])

    def test_an_undone_check_in_is_dropped(self):
        doc = final([1, 2], [1, 2], stage_extra=[("player_check_in_undone.v1", {"player": 2})],
                    dropped=[2])
        self.assertEqual(seasons.stage_one(doc)[1], [1])

    def test_a_dropped_list_the_events_do_not_give_is_refused(self):
        with self.assertRaises(seasons.Refused):
            seasons.stage_one(final([1, 2], [1, 2], dropped=[2]))


class SeedingCheck(unittest.TestCase):
    """docs/seasons.md sections 4 and 5, on bare archives."""

    def test_the_standings_then_the_rest_in_registration_order(self):
        # Registered 9, 4, 7, 2, 5 (5 never checks in); only 7 and 2 have results, and a
        # non-entrant (99) ranks between them. The others follow in registration order
        # (9 before 4), not by account id.
        members = [member(11, [(2, 1), (99, 2), (7, 3)])]
        order = [2, 7, 9, 4]
        doc = final([9, 4, 7, 2, 5], [9, 4, 7, 2], seeding=season_seeding(order, [11]))
        verdict = seasons.check_seeding(doc, members)
        self.assertEqual(verdict, {"ok": True, "tournament": 20, "season": 4,
                                   "recorded": order, "expected": order})
        wrong = final([9, 4, 7, 2, 5], [9, 4, 7, 2], seeding=season_seeding([2, 7, 4, 9], [11]))
        verdict = seasons.check_seeding(wrong, members)
        self.assertFalse(verdict["ok"])
        self.assertEqual(verdict["expected"], order)

    def test_the_example_of_section_4(self):
        # Section 2's season as members 11, 12 and 15, and a fifth entrant (21) with no
        # result: 3, 5, 7 (shared place 1, by account id), 9, then 21.
        members = [member(11, by_place({7: 1, 3: 2, 5: 3, 9: 4})),
                   member(12, by_place({3: 1, 5: 2, 7: 3, 9: 4})),
                   member(15, by_place({5: 1, 7: 2, 9: 3, 3: 4}))]
        order = [3, 5, 7, 9, 21]
        doc = final([21, 9, 7, 5, 3], [21, 9, 7, 5, 3],
                    seeding=season_seeding(order, [11, 12, 15]))
        self.assertTrue(seasons.check_seeding(doc, members)["ok"])

    def test_the_scale_and_count_are_the_seedings(self):
        # 1 has 10 and 0, 2 has 6 and 6 (99 and 98 are not entrants): with best 1 the
        # 10 beats a 6; with best 2, 12 beats 10.
        members = [member(11, [(1, 1), (2, 2)]), member(12, [(99, 1), (2, 2), (98, 3), (1, 4)])]
        best1 = final([1, 2], [1, 2], seeding=season_seeding([1, 2], [11, 12], best=1))
        self.assertTrue(seasons.check_seeding(best1, members)["ok"])
        best2 = final([1, 2], [1, 2], seeding=season_seeding([2, 1], [11, 12], best=2))
        self.assertTrue(seasons.check_seeding(best2, members)["ok"])

    def test_members_must_be_exactly_the_named_ones(self):
        doc = final([1, 2], [1, 2], seeding=season_seeding([1, 2], [11, 12]))
        a, b, c = member(11, [(1, 1)]), member(12, [(2, 1)]), member(13, [(2, 1)])
        with self.assertRaisesRegex(seasons.Refused, "no archive"):
            seasons.check_seeding(doc, [a])
        with self.assertRaisesRegex(seasons.Refused, "does not count"):
            seasons.check_seeding(doc, [a, b, c])
        with self.assertRaisesRegex(seasons.Refused, "as finished"):
            seasons.check_seeding(doc, [a, unfinished(12)])
        # The command line's order does not matter.
        self.assertTrue(seasons.check_seeding(doc, [b, a])["ok"])

    def test_no_season_seeding_is_refused(self):
        with self.assertRaisesRegex(seasons.Refused, "no seeding"):
            seasons.check_seeding(final([1], [1]), [])
        rating = {"procedure": "yaniv-ratings/1", "as_of_micros": 1, "order": [1]}
        with self.assertRaisesRegex(seasons.Refused, "yaniv-ratings/1"):
            seasons.check_seeding(final([1], [1], seeding=rating), [])


def rechain(sid, events):
    """Every hash of the stream again, as a forger (or the server) would write them."""
    prev = bytes(32)
    for e in events:
        e["prev_hash"] = prev.hex()
        prev = va.event_hash(sid, e["version"], e["type"], e["payload"], e["actor"],
                             e["request_id"], e["idempotency_key"], e["recorded_at_micros"], prev)
        e["hash"] = prev.hex()


def reseal(doc):
    """Each checkpoint's head hash and root again from its Merkle path (verification.md
    section 20), so that the edited archive is one the server could have written: only
    what the events mean is left to judge."""
    hashes = {s["stream_id"]: {e["version"]: e["hash"] for e in s["events"]} for s in doc["streams"]}
    for cp in doc["checkpoints"]:
        assert len(cp["heads"]) == 1, "a root shared by several heads cannot be redone from one"
        head = cp["heads"][0]
        head["head_hash"] = hashes[head["stream_id"]][head["version"]]
        value = va.checkpoint_leaf(head["stream_id"], head["version"], bytes.fromhex(head["head_hash"]))
        for step in head["path"]:
            if "left" in step:
                value = va.checkpoint_node(bytes.fromhex(step["left"]), value)
            else:
                value = va.checkpoint_node(value, bytes.fromhex(step["right"]))
        cp["root"] = value.hex()


def edit(doc, change_config=None, change_seeding=None):
    """paper-seeded's archive with its tournament_created config and stage 1 seeding
    changed in place, rechained and resealed."""
    sid = "tournament-%d" % doc["tournament_id"]
    events = next(s for s in doc["streams"] if s["stream_id"] == sid)["events"]
    for e in events:
        p = json.loads(e["payload"])
        if e["type"] == "tournament_created.v1" and change_config:
            change_config(p["config"])
        elif e["type"] == "stage_started.v1" and p["stage"] == 1 and change_seeding:
            p["seeding"] = change_seeding(p["seeding"])
            if p["seeding"] is None:
                del p["seeding"]
        else:
            continue
        e["payload"] = json.dumps(p, separators=(",", ":"))
    rechain(sid, events)
    reseal(doc)
    return doc


def to_season(config, season=4):
    config["seeding"] = "season"
    config["season"] = season


def season_of(members, **kw):
    """The recorded rating seeding turned into a season one, its order kept (so that the
    stored round 1 still follows from it)."""
    def change(seeding):
        return season_seeding(seeding["order"], members, **kw)
    return change


STAGE_ONE = 21     # paper-seeded: the version of stage 1's stage_started.v1
ROUND_ONE = 22     # and of its round 1 draw


def season_final(members=(1,), **kw):
    return edit(load(SEEDED), to_season, season_of(list(members), **kw))


class VerifierSeasonSeeding(unittest.TestCase):
    """verify_archive.py on a tournament seeded by a season (docs/seasons.md section 4,
    docs/verification.md section 12), made from paper-seeded's real archive."""

    def first(self, doc):
        v = va.verify_document(doc)
        ff = v["first_failure"]
        return ff and (ff["stream"], ff["version"], ff["code"])

    def test_the_resealed_original_still_verifies(self):
        # The rechain and reseal alone change nothing: the harness is sound.
        self.assertIsNone(self.first(edit(load(SEEDED))))

    def test_a_season_seeding_is_accepted(self):
        self.assertIsNone(self.first(season_final()))
        self.assertIsNone(self.first(season_final(members=[], best=None)))

    def bad(self, doc, version=STAGE_ONE, code="bad_seeding"):
        self.assertEqual(self.first(doc), ("tournament-2", version, code))

    def test_another_season_than_the_configs(self):
        self.bad(edit(load(SEEDED), lambda c: to_season(c, 5), season_of([1])))

    def test_the_rating_procedure_under_a_season_config(self):
        self.bad(edit(load(SEEDED), to_season))

    def test_the_season_procedure_under_a_rating_config(self):
        self.bad(edit(load(SEEDED), None, season_of([1])))

    def test_a_season_object_under_the_rating_procedure(self):
        def change(s):
            return dict(s, season=season_seeding([], [1])["season"])
        self.bad(edit(load(SEEDED), None, change))

    def test_a_season_seeding_without_its_season(self):
        def change(s):
            s = season_of([1])(s)
            del s["season"]
            return s
        self.bad(edit(load(SEEDED), to_season, change))

    def test_a_season_config_without_its_season_id(self):
        def config(c):
            to_season(c)
            del c["season"]
        self.bad(edit(load(SEEDED), config, season_of([1])))
        self.bad(edit(load(SEEDED), lambda c: to_season(c, "4"), season_of([1])))

    def test_a_season_id_in_a_rating_config(self):
        self.bad(edit(load(SEEDED), lambda c: c.update(season=4)))

    def test_the_final_counted_in_its_own_season(self):
        self.bad(season_final(members=[1, 2]))

    def test_a_scale_the_season_rule_refuses(self):
        self.bad(season_final(points=[4, 6]))
        self.bad(season_final(best=0))

    def test_an_entrant_left_out_of_the_order(self):
        def change(s):
            s = season_of([1])(s)
            s["order"].pop()
            return s
        self.bad(edit(load(SEEDED), to_season, change))

    def test_round_one_is_dealt_from_the_season_order(self):
        # The first and last seeds swapped: the stored snake draw no longer follows.
        def change(s):
            s = season_of([1])(s)
            s["order"][0], s["order"][-1] = s["order"][-1], s["order"][0]
            return s
        self.bad(edit(load(SEEDED), to_season, change), ROUND_ONE, "draw_mismatch")

    def test_no_seeding_under_a_season_config(self):
        self.bad(edit(load(SEEDED), to_season, lambda s: None))


class CommandLine(unittest.TestCase):
    def run_tool(self, *args):
        out = subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True)
        return out.returncode, json.loads(out.stdout)

    def write(self, doc):
        f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8")
        with f:
            json.dump(doc, f)
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_standings_of_real_archives(self):
        rc, out = self.run_tool("--points", "10,6,4", "--best", "2", SEEDED, KNOCKOUT)
        self.assertEqual(rc, 0, out)
        self.assertEqual(out["tournaments"], [2, 1])
        self.assertEqual([r["player"] for r in out["standings"][:2]], [3, 9])
        self.assertEqual(out["standings"][0]["total"], 14)

    def test_bad_points_and_best(self):
        for points in ["", "10,x", "4,6", "-1", "1000001", ",".join(["1"] * 65)]:
            rc, out = self.run_tool("--no-verify", "--points", points, SEEDED)
            self.assertEqual(rc, 2, points)
            self.assertIn("error", out)
        for best in ["0", "101"]:
            rc, _ = self.run_tool("--no-verify", "--points", "10", "--best", best, SEEDED)
            self.assertEqual(rc, 2, best)
        rc, _ = self.run_tool("--no-verify", SEEDED)
        self.assertEqual(rc, 2)

    def test_an_archive_that_does_not_verify_stops_the_run(self):
        tampered = os.path.join(VECTORS, "paper-seeded", "tampered", "ranking-swapped.json")
        rc, out = self.run_tool("--points", "10", tampered)
        self.assertEqual(rc, 1)
        self.assertEqual(out["first_failure"]["code"], "rewritten_since_checkpoint")
        rc, _ = self.run_tool("--no-verify", "--points", "10", tampered)
        self.assertEqual(rc, 0)

    def test_a_verified_final_against_a_verified_member(self):
        # paper-seeded made a final of the season of paper-knockout (tournament 1): its
        # recorded order is the rating list's, not paper-knockout's ranking restricted to
        # the final's entrants (3, 5, 4, 10, 7, 9, 6, 8; 11 and 12 did not enter).
        path = self.write(season_final(members=[1], best=None))
        rc, out = self.run_tool("--seeding", path, KNOCKOUT)
        self.assertEqual(rc, 1, out)
        self.assertEqual(out["recorded"], [3, 6, 4, 5, 8, 9, 7, 10])
        self.assertEqual(out["expected"], [3, 5, 4, 10, 7, 9, 6, 8])
        self.assertEqual((out["ok"], out["tournament"], out["season"]), (False, 2, 4))

    def test_a_final_whose_order_is_the_standings(self):
        # Members giving paper-seeded's order: 3, 6, 4, 5, 8, 9 by results (99 and 42
        # are not entrants), then 7 and 10, who have none, in registration order.
        a = member(11, [(3, 1), (6, 2), (4, 3), (5, 4), (8, 5), (9, 6), (99, 7)])
        b = member(12, [(42, 1)])
        path = self.write(season_final(members=[11, 12]))
        rc, out = self.run_tool("--no-verify", "--seeding", path, self.write(b), self.write(a))
        self.assertEqual(rc, 0, out)
        self.assertTrue(out["ok"])
        # Not given, or given without being named: no verdict.
        rc, out = self.run_tool("--no-verify", "--seeding", path, self.write(a))
        self.assertEqual(rc, 2)
        self.assertIn("12", out["error"])
        rc, out = self.run_tool("--no-verify", "--seeding", path, self.write(a), self.write(b),
                                self.write(member(13, [(3, 1)])))
        self.assertEqual(rc, 2)
        self.assertIn("13", out["error"])

    def test_finals_without_a_season_seeding(self):
        rc, out = self.run_tool("--seeding", SEEDED, KNOCKOUT)
        self.assertEqual(rc, 2)
        self.assertIn("yaniv-ratings/1", out["error"])
        rc, out = self.run_tool("--seeding", RANDOM, KNOCKOUT)
        self.assertEqual(rc, 2)
        self.assertIn("no seeding", out["error"])
        rc, _ = self.run_tool("--seeding", SEEDED, "--points", "10", KNOCKOUT)
        self.assertEqual(rc, 2)


if __name__ == "__main__":
    unittest.main()
